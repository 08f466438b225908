import CirrusModel
import CirrusServer
import CirrusServices
import CirrusTesting
import Testing

/// Users imported from LeanCloud keep their passwords: the export's `base64(SHA-512^513(salt‖password))` is
/// checked at log-in and replaced by scrypt on the first success.
@Suite("Imported passwords")
struct LegacyPasswordTests {
    /// The vector of LeanCloud's export documentation: salt and hash of the password `password`.
    static let salt = "h60d8x797d3oa0naxybxxv9bn7xpt2yiowz68mpiwou7gwr2"
    static let hash = "tA7BLW+NK0UeARng0693gCaVnljkglCB9snqlpCSUKjx2RgYp8VZZOQt0S5iUtlDrkJXfT3gknS4rRqjYsd/Ug=="

    @Test("a LeanCloud export hash logs in with the old password and is upgraded to scrypt; a wrong one is refused")
    func upgradeOnLogIn() async throws {
        try await TestServer.with { client in
            let user = try await client.signUp(.leancloud, "imported", password: "temporary")
            let legacy = StoredPassword.leanCloud(hash: Self.hash, salt: Self.salt).storedForm
            let written = try await client.store.perform([.account(.setPassword(userId: user.id, password: legacy))], atomically: true)
            guard case .success = written[0] else { Issue.record("setting the legacy hash failed: \(written)"); return }
            #expect(try await client.logIn(.leancloud, "imported", "temporary").code == 210)
            #expect(try await client.store.account(userId: user.id)?.password == legacy)
            let logged = try await client.logIn(.leancloud, "imported", "password")
            #expect(logged.status == 200)
            #expect(logged.json["sessionToken"]?.stringValue == user.token)
            let upgraded = try #require(try await client.store.account(userId: user.id)?.password)
            #expect(upgraded.hasPrefix("$scrypt$"))
            #expect(try await client.logIn(.leancloud, "imported", "password").status == 200)
            #expect(try await client.logIn(.leancloud, "imported", "temporary").code == 210)
        }
    }

    @Test("a user without a password (an SMS or third-party sign-up) cannot log in with any password")
    func noPassword() async throws {
        try await TestServer.with(configure: { $0.authData.trustedPlatforms = ["github"] }) { client in
            let created = try await client.request(.leancloud, .post, "/users", json: ["authData": ["github": ["uid": "x1"]], "username": "nopass"])
            #expect(created.status == 201)
            for guess in ["", "x", "password"] {
                #expect(try await client.logIn(.leancloud, "nopass", guess).status == 400)
            }
        }
    }
}
