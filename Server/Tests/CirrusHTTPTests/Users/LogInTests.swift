import CirrusModel

import CirrusTesting
import Testing

@Suite("Log-in")
struct LogInTests {
    @Test("LeanCloud log-in by username, email or phone returns the user with the same stable token as the sign-up")
    func leanCloudStableToken() async throws {
        try await TestServer.with { client in
            let user = try await client.signUp(.leancloud, "ann", extra: ["email": "ann@example.com", "mobilePhoneNumber": "+8618600000002"])
            let bodies: [JSON] = [
                ["username": "ann", "password": "secret-1"], ["email": "ann@example.com", "password": "secret-1"],
                ["mobilePhoneNumber": "+8618600000002", "password": "secret-1"],
            ]
            for body in bodies {
                let reply = try await client.request(.leancloud, .post, "/login", json: body)
                #expect(reply.status == 200)
                #expect(reply.json["sessionToken"]?.stringValue == user.token)
                #expect(reply.json["objectId"]?.stringValue == user.id)
                #expect(reply.json["username"] == "ann")
                #expect(reply.json["password"] == nil)
            }
        }
    }

    @Test("a Parse log-in creates a new revocable session each time; both tokens work")
    func parseRevocableSessions() async throws {
        try await TestServer.with { client in
            let user = try await client.signUp(.parse, "pat")
            let first = try await client.logIn(.parse, "pat", "secret-1").json["sessionToken"]?.stringValue ?? ""
            let second = try await client.request(.parse, .get, "/login?username=pat&password=secret-1").json["sessionToken"]?.stringValue ?? ""
            #expect(Set([user.token, first, second]).count == 3)
            for token in [user.token, first, second] {
                let me = try await client.request(.parse, .get, "/users/me", auth: .session(token))
                #expect(me.json["objectId"]?.stringValue == user.id)
            }
        }
    }

    @Test("Bmob's GET /login takes a username, email or phone number as the account")
    func bmobAccount() async throws {
        try await TestServer.with { client in
            let user = try await client.signUp(.bmob, "bea", extra: ["email": "bea@example.com"])
            for account in ["bea", "bea@example.com"] {
                let reply = try await client.request(.bmob, .get, "/login?username=\(URLQuery.encode(account))&password=secret-1")
                #expect(reply.status == 200)
                #expect(reply.json["objectId"]?.stringValue == user.id)
                #expect(reply.json["sessionToken"]?.stringValue == user.token)
                #expect(WireFormat.matches(reply.json["createdAt"]?.stringValue, WireFormat.spaced))
            }
        }
    }

    @Test("a wrong password and an unknown user get each dialect's codes", arguments: Endpoint.dialects)
    func failures(_ endpoint: Endpoint) async throws {
        let (mismatch, unknown): (Int64, Int64) = endpoint.dialect == .leancloud ? (210, 211) : (101, 101)
        // parse-server sends its OBJECT_NOT_FOUND (101) with 404.
        let status = endpoint.dialect == .parse ? 404 : 400
        try await TestServer.with { client in
            _ = try await client.signUp(endpoint, "carl")
            let wrong = try await client.logIn(endpoint, "carl", "nope")
            #expect(wrong.status == status)
            #expect(wrong.code == mismatch)
            let missing = try await client.logIn(endpoint, "nobody", "nope")
            #expect(missing.status == status)
            #expect(missing.code == unknown)
            let empty = try await client.request(endpoint, .post, "/login", json: ["password": "x"])
            #expect(empty.status == 400)
            let notJSON = try await client.request(endpoint, .post, "/login", body: "[1,2")
            #expect(notJSON.status == 400)
        }
    }

    @Test("the X-LC-Session of a previous user is ignored on sign-up and log-in")
    func staleHeaderIgnored() async throws {
        try await TestServer.with { client in
            _ = try await client.signUp(.leancloud, "dan")
            let stale: TestClient.Auth = .session("not-a-token")
            let signUp = try await client.request(.leancloud, .post, "/users", json: ["username": "eve", "password": "pw"], auth: stale)
            #expect(signUp.status == 201)
            let logIn = try await client.request(.leancloud, .post, "/login", json: ["username": "dan", "password": "secret-1"], auth: stale)
            #expect(logIn.status == 200)
        }
    }

    @Test("more than 6 wrong passwords in 15 minutes lock the account, even against the right one, until 15 minutes after the last attempt")
    func lockout() async throws {
        let clock = TestClock()
        var accounts = TestServer.fastAccounts
        accounts.clock = { clock.now() }
        try await TestServer.with(accounts: accounts) { client in
            _ = try await client.signUp(.leancloud, "lou")
            for _ in 1...6 {
                #expect(try await client.logIn(.leancloud, "lou", "wrong").code == 210)
                clock.advance(seconds: 60)
            }
            let seventh = try await client.logIn(.leancloud, "lou", "wrong")
            #expect(seventh.code == 219)
            #expect(seventh.json["error"]?.stringValue?.hasPrefix("You have exceeded the maximum number of login attempts") == true)
            clock.advance(seconds: 14 * 60)
            #expect(try await client.logIn(.leancloud, "lou", "secret-1").code == 219)
            clock.advance(seconds: 14 * 60)
            #expect(try await client.logIn(.leancloud, "lou", "secret-1").code == 219)
            clock.advance(seconds: 15 * 60)
            #expect(try await client.logIn(.leancloud, "lou", "secret-1").status == 200)
            #expect(try await client.logIn(.leancloud, "lou", "wrong").code == 210)
        }
    }

    @Test("failures older than 15 minutes do not count, and a right password clears them")
    func lockoutWindow() async throws {
        let clock = TestClock()
        var accounts = TestServer.fastAccounts
        accounts.clock = { clock.now() }
        try await TestServer.with(accounts: accounts) { client in
            _ = try await client.signUp(.parse, "win")
            for _ in 1...6 { #expect(try await client.logIn(.parse, "win", "wrong").code == 101) }
            clock.advance(seconds: 16 * 60)
            #expect(try await client.logIn(.parse, "win", "wrong").code == 101)
            for _ in 1...5 { #expect(try await client.logIn(.parse, "win", "wrong").code == 101) }
            #expect(try await client.logIn(.parse, "win", "secret-1").status == 200)
            for _ in 1...6 { #expect(try await client.logIn(.parse, "win", "wrong").code == 101) }
            #expect(try await client.logIn(.parse, "win", "wrong").code == 101)
            #expect(try await client.logIn(.parse, "win", "secret-1").status == 404)
        }
    }

    @Test("concurrent wrong guesses all count: a burst of 20 gets no more than 7 password checks")
    func concurrentGuesses() async throws {
        try await TestServer.with { client in
            _ = try await client.signUp(.leancloud, "burst")
            let codes = try await withThrowingTaskGroup(of: Int64?.self) { group in
                for _ in 0..<20 { group.addTask { try await client.logIn(.leancloud, "burst", "wrong").code } }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(codes.filter { $0 == 210 }.count <= 7)
            #expect(codes.filter { $0 == 219 }.count >= 13)
            #expect(try await client.logIn(.leancloud, "burst", "secret-1").code == 219)
        }
    }
}
