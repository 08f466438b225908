import CirrusModel
import Logging
package import CirrusStorage

/// Issuing, rotating and revoking sessions; password changes.
extension UserService {
    /// A new session for `userId`.
    func makeSession(_ userId: String, _ request: SessionRequest, action: String, now: Timestamp) -> StoredSession {
        let stable = request.kind == .stable
        let lifetime = stable ? settings.stableSessionLifetime : settings.revocableSessionLifetime
        return StoredSession(
            token: stable ? TokenGenerator.stableToken() : TokenGenerator.revocableToken(), sessionId: ObjectID.make(.alphanumeric10),
            userId: userId, kind: request.kind, createdAt: now,
            expiresAt: lifetime.map { Timestamp(millisecondsSince1970: now.millisecondsSince1970 + $0) },
            installationId: request.installationId, createdWith: ["action": .string(action), "authProvider": "password"]
        )
    }

    /// The token a log-in returns: the user's stable token (created when it has none, replaced when it expired), or a
    /// new revocable session.
    /// The session of a log-in of `user` (by password, code or third-party account), told to the change log
    /// (LiveQuery's `login` event of `_User` subscriptions). A failure to tell is logged; the log-in stands.
    func logInSession(_ user: StoredObject, _ request: SessionRequest) async throws -> String {
        try await onLogin(user)
        let token = try await issueSession(user.objectId, request, action: "login")
        do {
            try await store.append([.loggedIn(user)])
        } catch {
            objects.logger.warning("a log-in could not be added to the change log", metadata: ["error": "\(error)"])
        }
        return token
    }

    func issueSession(_ userId: String, _ request: SessionRequest, action: String) async throws -> String {
        let now = settings.clock()
        let fresh = makeSession(userId, request, action: action, now: now)
        guard request.kind == .stable else {
            try await performAccount([.createSession(fresh)])
            return fresh.token
        }
        let stable = try await store.sessions(userId: userId).first { $0.kind == .stable }
        if let stable, !stable.isExpired(at: now) { return stable.token }
        do {
            try await performAccount((stable.map { [.revokeSession(token: $0.token)] } ?? []) + [.createSession(fresh)])
            return fresh.token
        } catch let error as APIError where error.reason == .duplicateValue {
            // Another log-in created the stable token first: use it.
            guard let winner = try await store.sessions(userId: userId).first(where: { $0.kind == .stable }) else { throw error }
            return winner.token
        }
    }

    /// LeanCloud's `refreshSessionToken`: replaces the user's stable token; the old one stops working.
    /// - Throws: ``APIError`` ``APIError/Reason/sessionRequired`` unless the caller is that user or the master key.
    package func refreshSessionToken(userId: String, caller: Caller) async throws -> LoggedInUser {
        try checkSelf(userId, caller)
        let fresh = makeSession(userId, SessionRequest(kind: .stable), action: "refresh", now: settings.clock())
        let user = try await touch(userId, writes: [.revokeSessions(userId: userId, kind: .stable, keeping: nil), .createSession(fresh)])
        return LoggedInUser(user: user, sessionToken: fresh.token, isNew: false)
    }

    /// Changes a password after checking the old one (LeanCloud's `updatePassword`, Bmob's `updateUserPassword`).
    /// - Parameter rotateToken: give the user a new stable token (LeanCloud does on every change).
    /// - Throws: ``APIError`` ``APIError/Reason/sessionRequired``, ``APIError/Reason/oldPasswordMismatch``,
    ///   ``APIError/Reason/passwordMissing`` or ``APIError/Reason/accountLocked``.
    package func updatePassword(userId: String, old: String, new: String, caller: Caller, rotateToken: Bool) async throws -> LoggedInUser {
        try checkSelf(userId, caller)
        guard !new.isEmpty else { throw APIError(.passwordMissing, "The new password must be a non-empty string.") }
        try await LoginGuard(store: store, policy: settings.lockout, hasher: hasher, now: settings.clock())
            .verify(old, of: userId, mismatch: APIError(.oldPasswordMismatch, "The old password is wrong."))
        var writes: [AccountWrite] = [.setPassword(userId: userId, password: try hasher.hash(new))]
        var token = caller.sessionToken
        if settings.revokeSessionsOnPasswordChange || rotateToken {
            let keeping = rotateToken ? nil : caller.sessionToken
            writes.append(.revokeSessions(userId: userId, kind: settings.revokeSessionsOnPasswordChange ? nil : .stable, keeping: keeping))
        }
        if rotateToken {
            let fresh = makeSession(userId, SessionRequest(kind: .stable), action: "updatePassword", now: settings.clock())
            writes.append(.createSession(fresh))
            token = fresh.token
        }
        let user = try await touch(userId, writes: writes)
        return LoggedInUser(user: user, sessionToken: token ?? "", isNew: false)
    }

    /// Revokes the session the caller is logged in with (Parse's `logout`).
    package func logOut(_ caller: Caller) async throws {
        guard let token = caller.sessionToken else { throw Self.invalidToken }
        try await performAccount([.revokeSession(token: token)])
    }

    /// The sessions of the caller's user, oldest first.
    package func sessions(of caller: Caller) async throws -> [StoredSession] {
        guard let userId = caller.userId else { throw APIError(.invalidSessionToken, "A session token is required.") }
        return try await store.sessions(userId: userId)
    }

    /// Revokes one of the caller's sessions by its objectId.
    package func revokeSession(id: String, caller: Caller) async throws {
        guard let session = try await sessions(of: caller).first(where: { $0.sessionId == id }) else {
            throw APIError(.objectNotFound, "Object not found.")
        }
        try await performAccount([.revokeSession(token: session.token)])
    }

    private func checkSelf(_ userId: String, _ caller: Caller) throws(APIError) {
        guard caller.isMaster || caller.isUser(userId) else {
            throw APIError(.sessionRequired, "The user cannot be altered by a client without the session.")
        }
    }

    /// Runs account writes and server-side `changes` (no user rules apply) with the user's `updatedAt` bumped, in one
    /// transaction; returns the user.
    func touch(_ userId: String, changes: ObjectUpdate = ObjectUpdate(), writes: [AccountWrite]) async throws -> StoredObject {
        let schema = try await objects.schemas.schema(of: "_User")
        var update = try WritePlanner(className: "_User", schema: schema, configuration: objects.configuration)
            .update(userId, changes, condition: nil, now: settings.clock())
        update.accountWrites = writes
        do {
            return try await objects.performOne(.update(update), className: "_User").object
        } catch let error as APIError where error.reason == .objectNotFound || error.reason == .classNotFound {
            throw APIError(.userNotFound, "Could not find user.")
        }
    }

    /// Sets a password chosen through a reset (an SMS code or an e-mailed link): clears the lock-out and revokes the
    /// user's stable token, or every session with ``AccountSettings/revokeSessionsOnPasswordChange``, so the old
    /// token stops working and the next log-in gets a new one.
    /// - Throws: ``APIError`` ``APIError/Reason/passwordMissing`` for an empty password.
    func setPassword(of userId: String, to password: String) async throws {
        guard !password.isEmpty else { throw APIError(.passwordMissing, "The new password must be a non-empty string.") }
        _ = try await touch(userId, writes: [
            .setPassword(userId: userId, password: try hasher.hash(password)),
            .setLockout(userId: userId, failures: [], lockedUntil: nil),
            .revokeSessions(userId: userId, kind: settings.revokeSessionsOnPasswordChange ? nil : .stable, keeping: nil),
        ])
    }

    func performAccount(_ writes: [AccountWrite]) async throws {
        let commands = writes.map(WriteCommand.account)
        for result in try await store.perform(commands, atomically: true) {
            if case .failure(let error) = result, error != .rolledBack { throw error.apiError(className: "_Session") }
        }
        for command in commands { await objects.record(command) }
    }
}
