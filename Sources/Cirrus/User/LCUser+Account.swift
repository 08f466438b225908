import CirrusModel

extension LCUser {
    /// Creates the user on the server (`POST /1.1/users`) and makes it the current user. An anonymous user that
    /// logged in signs up by saving its new username and password on itself (seed 001: it becomes an ordinary user,
    /// keeping its id and data).
    /// - Throws: `LCError` 202 when the username is taken, 203 for the e-mail, 214 for the phone number.
    public func signUp() async throws {
        guard objectId == nil else {
            guard isAuthenticated, isAnonymous else { throw LCError.inconsistency("The user has signed up already.") }
            try await save()
            // The server dropped the anonymous link when the username and password arrived (R#104).
            lock.withLock {
                let links = (state.properties["authData"] as? LCDictionary)?.value.filter { $0.key != AuthDataPlatform.anonymous.key }
                state.properties["authData"] = links.map { LCDictionary(values: $0) }
            }
            application.persistCurrentUser(ifItIs: self)
            return
        }
        try await save()
        isNew = true
        application.currentUser = self
    }

    /// Logs in with a username and password; the user becomes the current user.
    /// - Throws: `LCError` 210 for a wrong password, 211 for an unknown user.
    public static func logIn(application: LCApplication = .default, username: String, password: String) async throws -> LCUser {
        try await logIn(application, ["username": .string(username), "password": .string(password)])
    }

    /// Logs in with an e-mail address and password.
    public static func logIn(application: LCApplication = .default, email: String, password: String) async throws -> LCUser {
        try await logIn(application, ["email": .string(email), "password": .string(password)])
    }

    /// Logs in with a mobile phone number and password.
    public static func logIn(application: LCApplication = .default, mobilePhoneNumber: String, password: String) async throws -> LCUser {
        try await logIn(application, ["mobilePhoneNumber": .string(mobilePhoneNumber), "password": .string(password)])
    }

    /// Logs in with a session token (`GET /1.1/users/me`), which the server checks.
    public static func logIn(application: LCApplication = .default, sessionToken: String) async throws -> LCUser {
        let reply = try await RESTClient(application: application).send("GET", "/users/me", session: .token(sessionToken))
        return try become(application, reply, sessionToken: sessionToken)
    }

    /// Forgets the current user (on this device; the session token stays valid on the server).
    public static func logOut(application: LCApplication = .default) {
        application.currentUser = nil
    }

    static func logIn(_ application: LCApplication, _ body: JSON) async throws -> LCUser {
        let reply = try await RESTClient(application: application).send("POST", "/login", body: body, session: .token(nil))
        return try become(application, reply, sessionToken: nil)
    }

    /// The user of a log-in reply, made the current user.
    static func become(_ application: LCApplication, _ reply: JSON, sessionToken: String?) throws -> LCUser {
        guard var members = reply.objectValue, members["objectId"] != nil else { throw LCError.malformed("The log-in reply has no user.") }
        if members["sessionToken"] == nil, let sessionToken { members["sessionToken"] = .string(sessionToken) }
        guard let user = ObjectDecoder(application: application).object(.object(members), className: objectClassName()) as? LCUser else {
            throw LCError.malformed("The log-in reply is not a user.")
        }
        // An automatic user not yet created is replaced, as by any log-in.
        application.currentUser = user
        return user
    }

    /// Changes the password of this logged-in user; the server may answer with a new session token, which is kept.
    /// - Throws: `LCError` 210 when `oldPassword` is wrong.
    public func updatePassword(oldPassword: String, newPassword: String) async throws {
        let path = try BatchRequest.requirePath(self) + "/updatePassword"
        let body: JSON = ["old_password": .string(oldPassword), "new_password": .string(newPassword)]
        let reply = try await RESTClient(application: application).send("PUT", path, body: body, session: sessionForWrites)
        merge(reply.objectValue ?? [:], decoder: ObjectDecoder(application: application))
        application.persistCurrentUser(ifItIs: self)
    }

    /// Replaces this user's session token with a new one (the old one stops working).
    public func refreshSessionToken() async throws {
        let path = try BatchRequest.requirePath(self) + "/refreshSessionToken"
        let reply = try await RESTClient(application: application).send("PUT", path, session: sessionForWrites)
        merge(reply.objectValue ?? [:], decoder: ObjectDecoder(application: application))
        application.persistCurrentUser(ifItIs: self)
    }

    /// Sends a password-reset e-mail to the user with this address.
    public static func requestPasswordReset(application: LCApplication = .default, email: String) async throws {
        _ = try await RESTClient(application: application).send("POST", "/requestPasswordReset", body: ["email": .string(email)])
    }

    /// Sends the e-mail-verification message again to the user with this address.
    public static func requestVerificationMail(application: LCApplication = .default, email: String) async throws {
        _ = try await RESTClient(application: application).send("POST", "/requestEmailVerify", body: ["email": .string(email)])
    }
}
