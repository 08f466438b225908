import CirrusModel
import CirrusTesting
import Testing

/// Users imported from Parse (or LeanCloud files carrying `bcryptPassword`) keep their bcrypt hashes: checked at
/// log-in in either dialect and replaced by scrypt on the first success.
@Suite("Imported bcrypt passwords")
struct BCryptPasswordTests {
    /// "correct horse battery staple" at Parse Server's cost 10, and the same at cost 4 in the `$2a$` and `$2y$`
    /// variants (pyca/bcrypt 5.0.0).
    static let hashes: [(dialect: Endpoint, hash: String)] = [
        (.leancloud, "$2b$10$..............AAAAAAAeEgYte4yhYvoMOFc4UCByY0iCVyPBDve"),
        (.parse, "$2b$10$..............AAAAAAAeEgYte4yhYvoMOFc4UCByY0iCVyPBDve"),
        (.parse, "$2a$04$abcdefghijklmnopqrstuu7EJV7kdjBBQxyb0HjTh9KS7.Lah/6CG"),
        (.leancloud, "$2y$04$abcdefghijklmnopqrstuu7EJV7kdjBBQxyb0HjTh9KS7.Lah/6CG"),
    ]
    static let password = "correct horse battery staple"

    @Test("a bcrypt hash logs in with the right password, is upgraded to scrypt, and a wrong password is refused", arguments: 0..<4)
    func upgradeOnLogIn(_ index: Int) async throws {
        let (endpoint, hash) = Self.hashes[index]
        let mismatch: Int64 = endpoint.dialect == .leancloud ? 210 : 101
        try await TestServer.with { client in
            let user = try await client.signUp(endpoint, "imported", password: "temporary")
            let written = try await client.store.perform([.account(.setPassword(userId: user.id, password: hash))], atomically: true)
            guard case .success = written[0] else { Issue.record("setting the bcrypt hash failed: \(written)"); return }
            #expect(try await client.logIn(endpoint, "imported", "temporary").code == mismatch)
            #expect(try await client.logIn(endpoint, "imported", Self.password + " ").code == mismatch)
            #expect(try await client.store.account(userId: user.id)?.password == hash)
            let logged = try await client.logIn(endpoint, "imported", Self.password)
            #expect(logged.status == 200)
            #expect(logged.json["objectId"]?.stringValue == user.id)
            #expect(logged.json["password"] == nil)
            let upgraded = try #require(try await client.store.account(userId: user.id)?.password)
            #expect(upgraded.hasPrefix("$scrypt$"))
            #expect(try await client.logIn(endpoint, "imported", Self.password).status == 200)
            #expect(try await client.logIn(endpoint, "imported", "temporary").code == mismatch)
        }
    }

    @Test("a malformed bcrypt string never matches, and stays as it was", arguments: [
        "$2a$10$..............AAAAAAAeEgYte4yhYvoMOFc4UCByY0iCVyPBDv",
        "$2a$10$..............AAAAAAAeEgYte4yhYvoMOFc4UCByY0iCVyPBDvf",
        "$2a$03$..............AAAAAAAeEgYte4yhYvoMOFc4UCByY0iCVyPBDve",
        "$2q$10$..............AAAAAAAeEgYte4yhYvoMOFc4UCByY0iCVyPBDve",
    ])
    func malformed(_ hash: String) async throws {
        try await TestServer.with { client in
            let user = try await client.signUp(.leancloud, "broken", password: "temporary")
            _ = try await client.store.perform([.account(.setPassword(userId: user.id, password: hash))], atomically: true)
            for guess in [Self.password, "temporary", ""] {
                #expect(try await client.logIn(.leancloud, "broken", guess).status != 200)
                #expect(try await client.logIn(.parse, "broken", guess).status != 200)
            }
            #expect(try await client.store.account(userId: user.id)?.password == hash)
        }
    }
}
