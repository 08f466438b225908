import CirrusModel

import CirrusTesting
import Testing

@Suite("Sessions")
struct SessionTests {
    @Test("/users/me answers the session's user; the session_token parameter wins over the header")
    func me() async throws {
        try await TestServer.with { client in
            let first = try await client.signUp(.leancloud, "me1")
            let second = try await client.signUp(.leancloud, "me2")
            let byHeader = try await client.request(.leancloud, .get, "/users/me", auth: .session(first.token))
            #expect(byHeader.json["objectId"]?.stringValue == first.id)
            #expect(byHeader.json["sessionToken"]?.stringValue == first.token)
            let byParameter = try await client.request(.leancloud, .get, "/users/me?session_token=\(second.token)", auth: .session(first.token))
            #expect(byParameter.json["objectId"]?.stringValue == second.id)
        }
    }

    @Test("a bad token on /users/me is 211 in LeanCloud (R#112), 209 in Parse and 211 in Bmob", arguments: Endpoint.dialects)
    func badTokenOnMe(_ endpoint: Endpoint) async throws {
        try await TestServer.with { client in
            for auth in [TestClient.Auth.session("0"), .appKey] {
                let reply = try await client.request(endpoint, .get, "/users/me", auth: auth)
                #expect(reply.status == (endpoint.dialect == .leancloud ? 400 : endpoint.dialect == .parse ? 400 : 400))
                #expect(reply.code == (endpoint.dialect == .parse ? 209 : 211))
            }
        }
    }

    @Test("a bad token on other endpoints is refused: LeanCloud 403, Parse 209, Bmob 211", arguments: Endpoint.dialects)
    func badTokenElsewhere(_ endpoint: Endpoint) async throws {
        try await TestServer.with { client in
            let reply = try await client.request(endpoint, .get, "/classes/Post", auth: .session("forged-token"))
            #expect(reply.status == (endpoint.dialect == .leancloud ? 403 : 400))
            #expect(reply.code == (endpoint.dialect == .leancloud ? 403 : endpoint.dialect == .parse ? 209 : 211))
        }
    }

    @Test("updatePassword checks the old password and issues a new token; the old token stops working (R#115)")
    func updatePassword() async throws {
        try await TestServer.with { client in
            let user = try await client.signUp(.leancloud, "up")
            let wrong = try await client.request(
                .leancloud, .put, "/users/\(user.id)/updatePassword", json: ["old_password": "bad", "new_password": "n"], auth: .session(user.token)
            )
            #expect(wrong.code == 210)
            let changed = try await client.request(
                .leancloud, .put, "/users/\(user.id)/updatePassword", json: ["old_password": "secret-1", "new_password": "next-2"],
                auth: .session(user.token)
            )
            #expect(changed.status == 200)
            #expect(changed.keys == ["objectId", "sessionToken", "updatedAt"])
            let token = try #require(changed.json["sessionToken"]?.stringValue)
            #expect(token != user.token)
            #expect(try await client.request(.leancloud, .get, "/users/me", auth: .session(user.token)).code == 211)
            #expect(try await client.request(.leancloud, .get, "/classes/Post", auth: .session(user.token)).status == 403)
            #expect(try await client.request(.leancloud, .get, "/users/me", auth: .session(token)).status == 200)
            #expect(try await client.logIn(.leancloud, "up", "secret-1").code == 210)
            #expect(try await client.logIn(.leancloud, "up", "next-2").json["sessionToken"]?.stringValue == token)
        }
    }

    @Test("updatePassword and refreshSessionToken of another user need that user's session (206)")
    func othersRefused() async throws {
        try await TestServer.with { client in
            let owner = try await client.signUp(.leancloud, "owner")
            let other = try await client.signUp(.leancloud, "other")
            let update = try await client.request(
                .leancloud, .put, "/users/\(owner.id)/updatePassword", json: ["old_password": "secret-1", "new_password": "x"],
                auth: .session(other.token)
            )
            #expect(update.code == 206)
            let refresh = try await client.request(.leancloud, .put, "/users/\(owner.id)/refreshSessionToken", auth: .session(other.token))
            #expect(refresh.code == 206)
            let anonymous = try await client.request(.leancloud, .put, "/users/\(owner.id)/refreshSessionToken")
            #expect(anonymous.code == 206)
            let missing = try await client.request(.leancloud, .put, "/users/\(owner.id)/updatePassword", json: ["old_password": "secret-1"], auth: .session(owner.token))
            #expect(missing.status == 400)
        }
    }

    @Test("refreshSessionToken answers updatedAt, objectId and a new token; the old one is refused (R#119)")
    func refresh() async throws {
        try await TestServer.with { client in
            let user = try await client.signUp(.leancloud, "fresh")
            let reply = try await client.request(.leancloud, .put, "/users/\(user.id)/refreshSessionToken", auth: .session(user.token))
            #expect(reply.keys == ["objectId", "sessionToken", "updatedAt"])
            let token = try #require(reply.json["sessionToken"]?.stringValue)
            #expect(token != user.token)
            #expect(try await client.request(.leancloud, .get, "/users/me", auth: .session(user.token)).code == 211)
            #expect(try await client.logIn(.leancloud, "fresh", "secret-1").json["sessionToken"]?.stringValue == token)
            let master = try await client.request(.leancloud, .put, "/users/\(user.id)/refreshSessionToken", auth: .master)
            #expect(master.status == 200)
        }
    }

    @Test("Bmob updateUserPassword answers msg ok and checkSession tells whether the token is the user's")
    func bmobPasswordAndCheckSession() async throws {
        try await TestServer.with { client in
            let user = try await client.signUp(.bmob, "bm")
            let other = try await client.signUp(.bmob, "bm2")
            let changed = try await client.request(
                .bmob, .put, "/updateUserPassword/\(user.id)", json: ["oldPassword": "secret-1", "newPassword": "n2"], auth: .session(user.token)
            )
            #expect(changed.json == ["msg": "ok"])
            let wrongOld = try await client.request(
                .bmob, .put, "/updateUserPassword/\(user.id)", json: ["oldPassword": "nope", "newPassword": "n3"], auth: .session(user.token)
            )
            #expect(wrongOld.code == 210)
            #expect(try await client.logIn(.bmob, "bm", "n2").status == 200)
            #expect(try await client.request(.bmob, .get, "/checkSession/\(user.id)", auth: .session(user.token)).json == ["msg": "ok"])
            #expect(try await client.request(.bmob, .get, "/checkSession/\(user.id)", auth: .session(other.token)).code == 211)
            #expect(try await client.request(.bmob, .get, "/checkSession/\(user.id)", auth: .session("bad")).code == 211)
        }
    }

    @Test("Parse logout revokes the session; /sessions lists the user's sessions and revokes one by id")
    func parseSessions() async throws {
        try await TestServer.with { client in
            let user = try await client.signUp(.parse, "ses")
            let second = try #require(try await client.logIn(.parse, "ses", "secret-1").json["sessionToken"]?.stringValue)
            let list = try await client.request(.parse, .get, "/sessions", auth: .session(user.token))
            let sessions = list.json["results"]?.arrayValue ?? []
            #expect(sessions.count == 2)
            #expect(sessions.allSatisfy { $0["user"]?["objectId"]?.stringValue == user.id })
            let me = try await client.request(.parse, .get, "/sessions/me", auth: .session(second))
            #expect(me.json["sessionToken"]?.stringValue == second)
            let secondId = try #require(me.json["objectId"]?.stringValue)
            #expect(try await client.request(.parse, .delete, "/sessions/\(secondId)", auth: .session(user.token)).status == 200)
            #expect(try await client.request(.parse, .get, "/users/me", auth: .session(second)).code == 209)
            #expect(try await client.request(.parse, .post, "/logout", auth: .session(user.token)).status == 200)
            #expect(try await client.request(.parse, .get, "/users/me", auth: .session(user.token)).code == 209)
            #expect(try await client.request(.parse, .get, "/sessions").status == 400)
        }
    }

    @Test("session endpoints refuse bad input: an unknown user or session, no session, a malformed body")
    func badInput() async throws {
        try await TestServer.with { client in
            let user = try await client.signUp(.parse, "bad-input")
            let lean = try await client.signUp(.leancloud, "bad-input-lc")
            #expect(try await client.request(.leancloud, .put, "/users/ffffffffffffffffffffffff/refreshSessionToken", auth: .master).code == 211)
            #expect(try await client.request(.leancloud, .put, "/users/\(lean.id)/updatePassword", body: "{", auth: .session(lean.token)).code == 107)
            #expect(try await client.request(.leancloud, .put, "/users/\(lean.id)/updatePassword", json: ["old_password": 1, "new_password": "x"], auth: .session(lean.token)).status == 400)
            #expect(try await client.request(.parse, .get, "/sessions/nope", auth: .session(user.token)).code == 101)
            #expect(try await client.request(.parse, .delete, "/sessions/nope", auth: .session(user.token)).code == 101)
            #expect(try await client.request(.parse, .post, "/logout").code == 209)
            #expect(try await client.request(.parse, .get, "/sessions/me").code == 209)
            #expect(try await client.request(.bmob, .get, "/checkSession/\(user.id)").code == 211)
            #expect(try await client.request(.leancloud, .post, "/users/\(lean.id)/refreshSessionToken", auth: .session(lean.token)).status == 405)
        }
    }

    @Test("sessions expire after the configured lifetime")
    func expiry() async throws {
        let clock = TestClock()
        var accounts = TestServer.fastAccounts
        accounts.clock = { clock.now() }
        accounts.revocableSessionLifetime = 3_600_000
        accounts.stableSessionLifetime = 7_200_000
        try await TestServer.with(accounts: accounts) { client in
            let parse = try await client.signUp(.parse, "exp-p")
            let lean = try await client.signUp(.leancloud, "exp-l")
            clock.advance(seconds: 3_599)
            #expect(try await client.request(.parse, .get, "/users/me", auth: .session(parse.token)).status == 200)
            clock.advance(seconds: 2)
            #expect(try await client.request(.parse, .get, "/users/me", auth: .session(parse.token)).code == 209)
            #expect(try await client.request(.leancloud, .get, "/users/me", auth: .session(lean.token)).status == 200)
            clock.advance(seconds: 3_600)
            #expect(try await client.request(.leancloud, .get, "/users/me", auth: .session(lean.token)).code == 211)
            let relogged = try #require(try await client.logIn(.leancloud, "exp-l", "secret-1").json["sessionToken"]?.stringValue)
            #expect(relogged != lean.token)
            #expect(try await client.request(.leancloud, .get, "/users/me", auth: .session(relogged)).status == 200)
        }
    }

    @Test("with log-out on password change, a new password revokes the user's other sessions")
    func revokeOnPasswordChange() async throws {
        var accounts = TestServer.fastAccounts
        accounts.revokeSessionsOnPasswordChange = true
        try await TestServer.with(accounts: accounts) { client in
            let user = try await client.signUp(.parse, "rev")
            let other = try #require(try await client.logIn(.parse, "rev", "secret-1").json["sessionToken"]?.stringValue)
            let changed = try await client.request(.parse, .put, "/users/\(user.id)", json: ["password": "new-pw"], auth: .session(user.token))
            #expect(changed.status == 200)
            #expect(try await client.request(.parse, .get, "/users/me", auth: .session(user.token)).status == 200)
            #expect(try await client.request(.parse, .get, "/users/me", auth: .session(other)).code == 209)
            #expect(try await client.logIn(.parse, "rev", "new-pw").status == 200)
        }
    }

    @Test("without that setting a password change through PUT keeps the other sessions")
    func keepOnPasswordChange() async throws {
        try await TestServer.with { client in
            let user = try await client.signUp(.parse, "keep")
            let other = try #require(try await client.logIn(.parse, "keep", "secret-1").json["sessionToken"]?.stringValue)
            #expect(try await client.request(.parse, .put, "/users/\(user.id)", json: ["password": "p2"], auth: .session(user.token)).status == 200)
            #expect(try await client.request(.parse, .get, "/users/me", auth: .session(other)).status == 200)
            #expect(try await client.logIn(.parse, "keep", "p2").status == 200)
        }
    }
}
