import CirrusModel
import CirrusTesting
import Testing

/// E-mail addresses are one account whatever the case of their letters, and are kept as typed.
@Suite("E-mail addresses ignore case")
struct EmailCaseTests {
    @Test("an address taken in another case is refused (203 / 203 / 203) at sign-up and on update, and kept as typed", arguments: Endpoint.dialects)
    func uniqueness(_ endpoint: Endpoint) async throws {
        try await TestServer.with { client in
            let ann = try await client.signUp(endpoint, "ann", extra: ["email": "Ann.Lee@Example.com"])
            let copy = try await client.request(endpoint, .post, "/users", json: ["username": "copy", "password": "pw-123", "email": "ann.lee@example.COM"])
            #expect(copy.status == 400)
            #expect(copy.code == 203, "\(copy.bodyText)")
            let bob = try await client.signUp(endpoint, "bob", extra: ["email": "bob@example.com"])
            let change = try await client.request(endpoint, .put, "/users/\(bob.id)", json: ["email": "ANN.LEE@example.com"], auth: .session(bob.token))
            #expect(change.code == 203, "\(change.bodyText)")
            let stored = try await client.request(endpoint, .get, "/users/\(ann.id)", auth: .master)
            #expect(stored.json["email"] == "Ann.Lee@Example.com")
        }
    }

    @Test("log-in and password reset by e-mail find the account in any case; the mail goes to the address as typed")
    func logInAndReset() async throws {
        try await TestServer.with { client in
            let ann = try await client.signUp(.leancloud, "ann", extra: ["email": "Ann@Example.com"])
            let logIn = try await client.request(.leancloud, .post, "/login", json: ["email": "ann@example.COM", "password": "secret-1"])
            #expect(logIn.status == 200, "\(logIn.bodyText)")
            #expect(logIn.json["objectId"] == .string(ann.id))
            let bmob = try await client.request(.bmob, .post, "/login", json: ["username": "ANN@example.com", "password": "secret-1"])
            #expect(bmob.json["objectId"] == .string(ann.id), "\(bmob.bodyText)")
            #expect(try await client.request(.leancloud, .post, "/requestPasswordReset", json: ["email": "ANN@EXAMPLE.COM"]).status == 200)
            #expect(client.mailOutbox.last(to: "Ann@Example.com") != nil)
            #expect(try await client.request(.leancloud, .post, "/requestPasswordReset", json: ["email": "nobody@example.com"]).code == 205)
        }
    }
}
