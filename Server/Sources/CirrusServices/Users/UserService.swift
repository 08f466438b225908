package import CirrusModel
package import CirrusStorage

/// How a log-in's session is issued, chosen by the dialect of the request: LeanCloud and Bmob give the user's one
/// stable token; Parse creates a revocable session per log-in.
package struct SessionRequest: Sendable, Hashable {
    package var kind: StoredSession.Kind
    package var installationId: String?

    package init(kind: StoredSession.Kind, installationId: String? = nil) {
        self.kind = kind
        self.installationId = installationId
    }
}

/// A user and the session token its client now holds.
package struct LoggedInUser: Sendable {
    package var user: StoredObject
    package var sessionToken: String
    /// Whether this request created the user.
    package var isNew: Bool

    package init(user: StoredObject, sessionToken: String, isNew: Bool) {
        self.user = user
        self.sessionToken = sessionToken
        self.isNew = isNew
    }
}

/// What a log-in names the account by.
package enum LogInName: Sendable, Hashable {
    case username(String)
    case email(String)
    case mobilePhoneNumber(String)
    /// Bmob's account name: a username, an e-mail address or a phone number.
    case account(String)
}

/// Sign-up, log-in, sessions and password changes. Passwords and sessions live in the store's account tables,
/// never in the `_User` document.
package struct UserService: Sendable {
    package let objects: ObjectService

    package init(objects: ObjectService) {
        self.objects = objects
    }

    var store: any StorageAdapter { objects.store }
    var settings: AccountSettings { objects.configuration.accounts }
    var hasher: PasswordHasher { PasswordHasher(cost: settings.passwordCost) }

    /// Creates a user from a sign-up body and logs it in.
    /// - Throws: ``APIError`` for a missing username or password (217, 218), a taken username, e-mail or phone
    ///   number (202, 203, 214), and invalid fields.
    package func signUp(body: JSON, options: WriteOptions, session: SessionRequest, caller: Caller) async throws -> LoggedInUser {
        var body = body
        let skips = try HookSkips.take(from: &body, caller: caller)
        body = try await objects.beforeSave("_User", body: body, skips: skips, caller: caller)
        guard case .object(let members) = body else { throw APIError(.invalidJSON, "The body must be a JSON object.") }
        guard case .string(let username)? = members["username"], !username.allSatisfy(\.isWhitespace) else {
            throw APIError(.usernameMissing, "Username is missing or empty.")
        }
        guard case .string(let password)? = members["password"], !password.isEmpty else {
            throw APIError(.passwordMissing, "Password is missing or empty.")
        }
        let update = try ObjectUpdate(body: body, isCreate: true, defaultOffsetMinutes: options.defaultOffsetMinutes)
        try await AuthDataGate(validator: objects.configuration.authDataValidator).check(update, caller: caller)
        let afterSave = try await objects.afterHook(.afterSave("_User"), skips: skips, caller: caller)
        return try await insertUser(update, options: options, session: session, action: "signup", caller: caller, afterHook: afterSave)
    }

    /// Stores a new user from a validated body with its password and first session, in one transaction: the
    /// verified flags start false (those in `verified` true: the server checked them), the ACL defaults to public
    /// read and owner write.
    func insertUser(
        _ body: ObjectUpdate, options: WriteOptions, session: SessionRequest, action: String, caller: Caller, verified: [String] = [],
        afterHook: AfterHookRequest? = nil
    ) async throws -> LoggedInUser {
        var update = body
        let userId = ObjectID.make(options.idStyle)
        let accountWrites = try objects.userRules.apply(to: &update, userId: userId, caller: caller)
        for flag in verified { update.set(flag, .set(.bool(true))) }
        for flag in ["emailVerified", "mobilePhoneVerified"] where update.operations(on: flag).isEmpty {
            update.set(flag, .set(.bool(false)))
        }
        if update.acl == nil { update.acl = .some(Self.defaultACL(userId)) }
        let now = settings.clock()
        let schema = try await objects.schemas.schema(of: "_User")
        // A sign-up is a create of `_User`: an app closes sign-ups by giving create to nobody.
        try objects.policy.checkClassPermission(.create, on: "_User", schema: schema, caller: caller)
        var command = try WritePlanner(className: "_User", schema: schema, configuration: objects.configuration)
            .insert(update, options: options, now: now)
        let customFields = command.newFields.filter { !Self.systemFields.contains($0.key) }
        try objects.policy.checkWrite(body, newFields: customFields, schema: schema, caller: caller)
        command.object.objectId = userId
        let newSession = makeSession(userId, session, action: action, now: now)
        command.accountWrites = accountWrites + [.createSession(newSession)]
        command.afterHook = afterHook
        let user = try await objects.performOne(.insert(command), className: "_User").object
        return LoggedInUser(user: user, sessionToken: newSession.token, isNew: true)
    }

    /// The fields every user may have, whatever the class permission for adding fields says.
    static let systemFields: Set<String> = ["username", "email", "mobilePhoneNumber", "emailVerified", "mobilePhoneVerified", "authData"]

    /// A new user's ACL: everyone reads it, the user writes it.
    static func defaultACL(_ userId: String) -> ACL {
        ACL(entries: ["*": ACL.Rights(read: true), userId: ACL.Rights(read: true, write: true)])
    }

    /// Logs a user in by name and password.
    /// - Throws: ``APIError`` ``APIError/Reason/userNotFound`` (211), ``APIError/Reason/loginMismatch`` (210) or
    ///   ``APIError/Reason/accountLocked`` (219).
    package func logIn(_ name: LogInName, password: String, session: SessionRequest) async throws -> LoggedInUser {
        guard !password.isEmpty else { throw APIError(.passwordMissing, "Password is missing or empty.") }
        guard let user = try await findUser(name) else { throw APIError(.userNotFound, "Could not find user.") }
        let mismatch = APIError(.loginMismatch, "The username and password mismatch.")
        try await LoginGuard(store: store, policy: settings.lockout, hasher: hasher, now: settings.clock())
            .verify(password, of: user.objectId, mismatch: mismatch)
        try checkVerified(user, loggedInAs: name)
        let token = try await logInSession(user, session)
        return LoggedInUser(user: user, sessionToken: token, isNew: false)
    }

    /// Refuses a password log-in that the app's settings require a verified e-mail (216) or, for a log-in by phone
    /// number, a verified number (215) for. Checked after the password, so it tells nothing to a guesser.
    func checkVerified(_ user: StoredObject, loggedInAs name: LogInName) throws(APIError) {
        if settings.preventLoginWithUnverifiedEmail, case .string? = user.fields["email"], user.fields["emailVerified"] != .bool(true) {
            throw APIError(.emailNotVerified, "Email address isn't verified.")
        }
        let number = user.fields["mobilePhoneNumber"]?.stringValue
        let byPhone: Bool
        switch name {
        case .mobilePhoneNumber: byPhone = true
        case .account(let value): byPhone = value == number
        case .username, .email: byPhone = false
        }
        if settings.preventLoginWithUnverifiedPhone, byPhone, user.fields["mobilePhoneVerified"] != .bool(true) {
            throw APIError(.mobilePhoneNumberNotVerified, "Mobile phone number isn't verified.")
        }
    }

    /// The user named by a log-in, read with the master key. An e-mail address matches whatever the case of its
    /// letters (the exact spelling first), as its uniqueness does.
    func findUser(_ name: LogInName) async throws -> StoredObject? {
        let condition: Condition
        switch name {
        case .username(let value): condition = Self.equals("username", value)
        case .email(let value): return try await store.user(email: value)
        case .mobilePhoneNumber(let value): condition = Self.equals("mobilePhoneNumber", value)
        case .account(let value):
            condition = .or([Self.equals("username", value), Self.equals("email", value), Self.equals("mobilePhoneNumber", value)])
        }
        guard let schema = try await objects.schemas.schema(of: "_User") else { return nil }
        if let user = try await store.find(StorageQuery(className: "_User", schema: schema, condition: condition, limit: 1)).first { return user }
        guard case .account(let value) = name, UserRules.isEmail(value) else { return nil }
        return try await store.user(email: value)
    }

    static func equals(_ field: String, _ value: String) -> Condition {
        .compare(FieldPath(field: field), .equal, .string(value))
    }

    /// The user a session token belongs to (`/users/me`).
    /// - Throws: ``APIError`` ``APIError/Reason/invalidSessionToken`` for an unknown, revoked or expired token.
    package func user(sessionToken: String) async throws -> LoggedInUser {
        let session = try await validSession(sessionToken)
        guard let user = try await store.fetch(className: "_User", ids: [session.userId]).first else { throw Self.invalidToken }
        return LoggedInUser(user: user, sessionToken: sessionToken, isNew: false)
    }

    /// The caller a request with this session token acts as: the session's user, with the roles it holds.
    /// - Throws: ``APIError`` ``APIError/Reason/invalidSessionToken``.
    package func caller(sessionToken: String, base: Caller) async throws -> Caller {
        let now = settings.clock()
        if let known = objects.sessionCache.caller(sessionToken, base: base, at: now) { return known }
        let session = try await validSession(sessionToken)
        let roles = try await store.roleNames(userId: session.userId)
        objects.sessionCache.remember(sessionToken, userId: session.userId, roleNames: roles, sessionExpiry: session.expiresAt, now: now)
        var caller = base
        caller.userId = session.userId
        caller.roleNames = roles
        caller.sessionToken = sessionToken
        return caller
    }

    func validSession(_ token: String) async throws -> StoredSession {
        guard !token.isEmpty, let session = try await store.session(token: token), !session.isExpired(at: settings.clock()) else {
            throw Self.invalidToken
        }
        return session
    }

    static let invalidToken = APIError(.invalidSessionToken, "Invalid session token.")
}
