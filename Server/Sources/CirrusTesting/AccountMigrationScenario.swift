import CirrusModel
package import CirrusStorage

/// A database written by a Cirrus from before third-party links and case-insensitive e-mail uniqueness, started by the
/// current one: the links are filled from the users' `authData` (the older user keeps an account two users hold), and
/// e-mail addresses held in several cases keep the start from failing: e-mail uniqueness stays case-sensitive until
/// they are resolved, then applies at the next start.
package enum AccountMigrationScenario {
    /// Runs the scenario on stores `open` opens on one database; `execute` runs raw SQL on a store, to turn its database
    /// into an older one.
    /// - Throws: a ``ConformanceFailure`` naming what differed.
    package static func run(
        open: @Sendable () async throws -> any StorageAdapter, execute: @Sendable (any StorageAdapter, String) async throws -> Void
    ) async throws {
        let old = try await open()
        try await old.prepare()
        let driver = StorageConformanceDriver(store: old)
        try await driver.insert("_User", ["username": "ann", "email": "Ann@x.io", "authData": ["github": ["uid": "g1"]]], id: "u1")
        try await execute(old, "DROP INDEX \"o__user_lower_unique_email\"")
        try await execute(old, "DELETE FROM \"_cirrus_migrations\" WHERE \"name\" IN ('0009_auth_links_from_users', '0010_email_unique_ignoring_case')")
        let unionId: JSON = ["weixin": ["openid": "w1", "unionid": "un"], "_weixin_unionid": ["uid": "un"], "anonymous": ["id": 42], "qq": ["openid": 7.0], "bad": "x", "none": ["token": "t"]]
        try await driver.insert("_User", ["username": "wei", "authData": unionId], id: "u2", createdAt: Timestamp(millisecondsSince1970: 1_700_000_000_001))
        try await driver.insert("_User", ["username": "copy", "email": "ann@X.io", "authData": ["github": ["uid": "g1"]]], id: "u3",
            createdAt: Timestamp(millisecondsSince1970: 1_700_000_000_002))
        try await old.close()

        let blocked = try await open()
        try await blocked.prepare()
        try verifyEqual(try await blocked.linkedUser(platform: "github", uid: "g1")?.objectId, "u1", "an account two users held, kept by the older")
        try verifyEqual(try await blocked.linkedUser(platform: "weixin", uid: "w1")?.objectId, "u2", "an account by its openid")
        try verifyEqual(try await blocked.linkedUser(platform: "_weixin_unionid", uid: "un")?.objectId, "u2", "a main account's UnionID")
        try verifyEqual(try await blocked.linkedUser(platform: "anonymous", uid: "42")?.objectId, "u2", "an anonymous id given as a number")
        try verifyEqual(try await blocked.linkedUser(platform: "qq", uid: "7")?.objectId, "u2", "an id given as an integral double, read as LinkedAccount reads it")
        try verifyEqual(try await blocked.linkedUser(platform: "none", uid: "t")?.objectId, nil, "an entry without an id")
        try verifyEqual(try await blocked.caseDuplicateEmails(limit: 10), ["ann@x.io"], "the addresses held in several cases")
        try verifyEqual(try await blocked.user(email: "ann@X.io")?.objectId, "u3", "the exact spelling first")
        let resolve = try await StorageConformanceDriver(store: blocked).update("_User", "u3", ["email": "other@x.io"])
        _ = try verifySuccess(resolve, "resolving the duplicate")
        try await blocked.close()

        let resolved = try await open()
        try await resolved.prepare()
        try verifyEqual(try await resolved.caseDuplicateEmails(limit: 10), [], "the addresses held in several cases once resolved")
        let taken = try await resolved.perform([try StorageConformanceDriver(store: resolved).insertCommand("_User", ["username": "d", "email": "ANN@x.io"])], atomically: false)
        try verifyFailure(taken[0], .duplicateValue(field: "email"), "another case of a taken address, once the migration applied")
        try await resolved.close()
    }
}
