package import CirrusModel

/// A session token and the user it logs in.
///
/// LeanCloud and Bmob give each user one stable token (``Kind/stable``), which log-ins return again and again;
/// Parse gives each log-in its own revocable session (``Kind/revocable``), listed as `_Session` objects.
package struct StoredSession: Sendable, Hashable {
    package enum Kind: String, Sendable, Hashable {
        case stable
        case revocable
    }

    package var token: String
    /// The session's objectId as a `_Session` object.
    package var sessionId: String
    package var userId: String
    package var kind: Kind
    package var createdAt: Timestamp
    /// `nil`: the session never expires.
    package var expiresAt: Timestamp?
    package var installationId: String?
    /// How it was created: `{"action":"login","authProvider":"password"}`.
    package var createdWith: JSON?

    package init(
        token: String, sessionId: String, userId: String, kind: Kind, createdAt: Timestamp, expiresAt: Timestamp?,
        installationId: String? = nil, createdWith: JSON? = nil
    ) {
        self.token = token
        self.sessionId = sessionId
        self.userId = userId
        self.kind = kind
        self.createdAt = createdAt
        self.expiresAt = expiresAt
        self.installationId = installationId
        self.createdWith = createdWith
    }

    /// Whether the session has expired at `now`.
    package func isExpired(at now: Timestamp) -> Bool {
        guard let expiresAt else { return false }
        return now.millisecondsSince1970 >= expiresAt.millisecondsSince1970
    }
}

/// What the store keeps of a user beside the `_User` object, never in it: the stored password and the log-in
/// failures of the lock-out rule. Kept out of the object's document so that no query, include or export can
/// reach it.
package struct StoredAccount: Sendable, Hashable {
    package var userId: String
    /// The stored form of the password (see the services' `StoredPassword`); `nil` when it has none.
    package var password: String?
    /// Recent failed log-ins, oldest first.
    package var failures: [Timestamp]
    /// The end of the current lock-out.
    package var lockedUntil: Timestamp?

    package init(userId: String, password: String?, failures: [Timestamp] = [], lockedUntil: Timestamp? = nil) {
        self.userId = userId
        self.password = password
        self.failures = failures
        self.lockedUntil = lockedUntil
    }
}

/// A write to the account tables, run like any other ``WriteCommand`` (so in the same transaction as the user
/// object it belongs to).
package enum AccountWrite: Sendable, Hashable {
    /// Sets the stored password (`nil` removes it), keeping the lock-out state.
    case setPassword(userId: String, password: String?)
    /// Records the lock-out state after an attempt.
    case setLockout(userId: String, failures: [Timestamp], lockedUntil: Timestamp?)
    /// Appends one attempt to the user's failures atomically, so that concurrent attempts all count.
    case appendFailure(userId: String, at: Timestamp)
    case createSession(StoredSession)
    /// Revokes one session.
    case revokeSession(token: String)
    /// Revokes the user's sessions, of one kind or all, except the token given in `keeping`.
    case revokeSessions(userId: String, kind: StoredSession.Kind?, keeping: String?)
    /// Stores a verification code or link token, replacing the one of the same purpose and target.
    case saveCode(StoredCode)
    /// Removes a code once used (or refused too often).
    case deleteCode(purpose: String, target: String)
    /// Counts one wrong try of a code, atomically.
    case countCodeAttempt(purpose: String, target: String)
    /// Records that a message went to `target` (a phone number or an address), forgetting sends older than
    /// `forgetBefore`; ``StorageAdapter/sendCount(target:since:)`` counts them for rate limits.
    case recordSend(target: String, at: Timestamp, forgetBefore: Timestamp)
    /// Links a third-party account (`authData.<platform>` identified by `uid`) to a user, in place of the user's link
    /// of that platform. The store refuses an account another user holds: ``StorageError/duplicateValue(field:)``
    /// with the field `authData`.
    case linkAccount(userId: String, platform: String, uid: String)
    /// Unlinks the user's account of `platform`, or every account of the user when `platform` is `nil`.
    case unlinkAccount(userId: String, platform: String?)
}

/// A verification code sent by SMS, or the token of an e-mailed link: what it is for, where it went, and until when
/// it is valid.
package struct StoredCode: Sendable, Hashable {
    /// What the code proves: `sms`, `login`, `verifyPhone`, `changePhone`, `resetPassword`, `verifyEmail`, …
    package var purpose: String
    /// The phone number or e-mail address it was sent to, or for a link the token itself.
    package var target: String
    package var code: String
    /// The user it belongs to, if any.
    package var userId: String?
    package var createdAt: Timestamp
    package var expiresAt: Timestamp
    /// Wrong tries so far.
    package var attempts: Int
    /// What the purpose needs besides (the new phone number of a change, …).
    package var data: JSON?

    package init(
        purpose: String, target: String, code: String, userId: String?, createdAt: Timestamp, expiresAt: Timestamp, attempts: Int = 0,
        data: JSON? = nil
    ) {
        self.purpose = purpose
        self.target = target
        self.code = code
        self.userId = userId
        self.createdAt = createdAt
        self.expiresAt = expiresAt
        self.attempts = attempts
        self.data = data
    }
}
