package import CirrusModel
import CirrusStorage

/// Third-party log-in (`POST /users` with `authData`): an existing link logs in (200), a new one signs up (201),
/// UnionID entries join the main account of their UnionID. The data passes the ``AuthDataGate`` first; which user an
/// account belongs to is the store's links, unique per platform and id.
extension UserService {
    /// Logs in or signs up by third-party data.
    /// - Parameters:
    ///   - body: the request body: `authData` and, for a new user, other fields (`username`, a phone number…).
    ///   - failOnNotExist: refuse (211) instead of creating a user.
    /// - Throws: ``APIError`` ``APIError/Reason/invalidAuthData`` (250), the validator's refusals (251, 252),
    ///   ``APIError/Reason/userNotFound`` (211).
    package func logIn(
        authDataBody body: JSON, failOnNotExist: Bool, options: WriteOptions, session: SessionRequest, caller: Caller
    ) async throws -> LoggedInUser {
        let body = try await onAuthData(body)
        let accounts = try LinkedAccount.accounts(in: body["authData"] ?? .null)
        guard !accounts.isEmpty else { throw APIError(.invalidAuthData, "authData names no platform.") }
        try await AuthDataGate(validator: objects.configuration.authDataValidator).check(accounts, caller: caller)
        do {
            return try await logIn(accounts, body: body, failOnNotExist: failOnNotExist, options: options, session: session, caller: caller)
        } catch let error as APIError where error.reason == .authDataTaken {
            // A concurrent log-in linked the account first: this one logs in to that user.
            return try await logIn(accounts, body: body, failOnNotExist: failOnNotExist, options: options, session: session, caller: caller)
        }
    }

    private func logIn(
        _ accounts: [LinkedAccount], body: JSON, failOnNotExist: Bool, options: WriteOptions, session: SessionRequest, caller: Caller
    ) async throws -> LoggedInUser {
        if let user = try await linkedUser(accounts) {
            let merged = try await link(accounts, to: user.objectId)
            let token = try await logInSession(merged, session)
            return LoggedInUser(user: merged, sessionToken: token, isNew: false)
        }
        if failOnNotExist { throw APIError(.userNotFound, "Could not find user.") }
        var members = body.objectValue ?? [:]
        members.removeValue(forKey: "authData")
        if members["username"] == nil { members["username"] = .string(TokenGenerator.username()) }
        var update = try ObjectUpdate(body: .object(members), isCreate: true, defaultOffsetMinutes: options.defaultOffsetMinutes)
        update.set("authData", .set(try Value(wire: Self.authData(accounts))))
        return try await insertUser(update, options: options, session: session, action: "login", caller: caller)
    }

    /// The user one of the accounts is linked to, or the main account of one's UnionID.
    func linkedUser(_ accounts: [LinkedAccount]) async throws -> StoredObject? {
        for account in accounts {
            if let user = try await store.linkedUser(platform: account.platform, uid: account.id) { return user }
        }
        for account in accounts {
            guard let unionId = account.unionId, let key = account.unionKey else { continue }
            if let user = try await store.linkedUser(platform: key, uid: unionId) { return user }
        }
        return nil
    }

    /// Adds or refreshes the accounts in the user's `authData`, keeping its other platforms; returns the user.
    func link(_ accounts: [LinkedAccount], to userId: String) async throws -> StoredObject {
        var operations: [(path: FieldPath, operation: FieldOperation)] = []
        for (key, value) in Self.authData(accounts).objectValue ?? [:] {
            operations.append((FieldPath(["authData", key]), .set(try Value(wire: value))))
        }
        let update = ObjectUpdate(operations: operations)
        let schema = try await objects.schemas.schema(of: "_User")
        var command = try WritePlanner(className: "_User", schema: schema, configuration: objects.configuration)
            .update(userId, update, condition: nil, now: settings.clock())
        command.accountWrites = try AuthLinkChanges.writes(update, userId: userId)
        return try await objects.performOne(.update(command), className: "_User").object
    }

    /// The `authData` entries of the accounts, with the `_<platform>_unionid` key of main accounts.
    static func authData(_ accounts: [LinkedAccount]) -> JSON {
        var members: [String: JSON] = [:]
        for account in accounts {
            members[account.platform] = .object(account.entry)
            if account.isMainAccount, let key = account.unionKey, let unionId = account.unionId {
                members[key] = ["uid": .string(unionId)]
            }
        }
        return .object(members)
    }
}
