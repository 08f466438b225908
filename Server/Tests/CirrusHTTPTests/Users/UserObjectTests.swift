import CirrusModel
import CirrusTesting
import Testing

/// `_User` objects through `/users/<id>` and `/classes/_User/<id>`: only the user changes or deletes itself.
@Suite("User objects")
struct UserObjectTests {
    @Test("a user updates itself with its session through both paths; another user, no session and a bad token are refused", arguments: Endpoint.dialects)
    func selfOnly(_ endpoint: Endpoint) async throws {
        try await TestServer.with { client in
            let owner = try await client.signUp(endpoint, "self-\(endpoint.dialect.rawValue)")
            let other = try await client.signUp(endpoint, "other-\(endpoint.dialect.rawValue)")
            for path in ["/users/\(owner.id)", "/classes/_User/\(owner.id)"] {
                #expect(try await client.request(endpoint, .put, path, json: ["nickname": "ok"], auth: .session(owner.token)).status == 200)
                #expect(try await client.request(endpoint, .put, path, json: ["nickname": "no"], auth: .session(other.token)).code == 206)
                #expect(try await client.request(endpoint, .put, path, json: ["nickname": "no"]).code == 206)
            }
            #expect(try await client.request(endpoint, .put, "/users/\(owner.id)", json: ["nickname": "master"], auth: .master).status == 200)
            let fetched = try await client.request(endpoint, .get, "/users/\(owner.id)")
            #expect(fetched.json["nickname"] == "master")
            #expect(try await client.request(endpoint, .delete, "/users/\(owner.id)", auth: .session(other.token)).code == 206)
            #expect(try await client.request(endpoint, .delete, "/users/\(owner.id)", auth: .session(owner.token)).status == 200)
            #expect(try await client.request(endpoint, .get, "/users/me", auth: .session(owner.token)).status == 400)
            #expect(try await client.logIn(endpoint, "self-\(endpoint.dialect.rawValue)", "secret-1").status == (endpoint.dialect == .parse ? 404 : 400))
        }
    }

    @Test("changing the username to a taken one is refused; changing the email resets emailVerified")
    func updateRules() async throws {
        try await TestServer.with { client in
            let user = try await client.signUp(.leancloud, "u1", extra: ["email": "u1@example.com"])
            _ = try await client.signUp(.leancloud, "u2")
            let taken = try await client.request(.leancloud, .put, "/users/\(user.id)", json: ["username": "u2"], auth: .session(user.token))
            #expect(taken.code == 202)
            _ = try await client.request(.leancloud, .put, "/users/\(user.id)", json: ["emailVerified": true], auth: .master)
            #expect(try await client.request(.leancloud, .get, "/users/\(user.id)").json["emailVerified"] == true)
            let selfVerified = try await client.request(.leancloud, .put, "/users/\(user.id)", json: ["mobilePhoneVerified": true], auth: .session(user.token))
            #expect(selfVerified.status == 200)
            #expect(try await client.request(.leancloud, .get, "/users/\(user.id)").json["mobilePhoneVerified"] == false)
            _ = try await client.request(.leancloud, .put, "/users/\(user.id)", json: ["email": "new@example.com"], auth: .session(user.token))
            let after = try await client.request(.leancloud, .get, "/users/\(user.id)", auth: .session(user.token))
            #expect(after.json["email"] == "new@example.com")
            #expect(after.json["emailVerified"] == false)
            let blank = try await client.request(.leancloud, .put, "/users/\(user.id)", json: ["username": ""], auth: .session(user.token))
            #expect(blank.code == 217)
            let emptyPassword = try await client.request(.leancloud, .put, "/users/\(user.id)", json: ["password": ""], auth: .session(user.token))
            #expect(emptyPassword.code == 218)
        }
    }

    @Test("finding users needs the master key (_User find is off); fetching one by id does not", arguments: Endpoint.dialects)
    func findIsClosed(_ endpoint: Endpoint) async throws {
        let (status, code): (Int, Int64) = switch endpoint.dialect {
        case .leancloud: (403, 403)
        case .parse: (403, 119)
        case .bmob: (400, 122)
        }
        try await TestServer.with { client in
            let user = try await client.signUp(endpoint, "finder")
            for path in ["/users", "/classes/_User", "/classes/_User?count=1&limit=0"] {
                let reply = try await client.request(endpoint, .get, path, auth: .session(user.token))
                #expect(reply.status == status)
                #expect(reply.code == code)
            }
            let inner = try await client.request(
                endpoint, .get, "/classes/Post?" + URLQuery.whereClause(["author": ["$inQuery": ["className": "_User", "where": [:]]]])
            )
            #expect(inner.code == code)
            #expect(try await client.request(endpoint, .get, "/users", auth: .master).json["results"]?.arrayValue?.count == 1)
            #expect(try await client.request(endpoint, .get, "/users/\(user.id)").json["username"] == "finder")
        }
    }

    @Test("the master key reads a user's stable session token when fetching the user; clients never do")
    func masterReadsToken() async throws {
        try await TestServer.with { client in
            let user = try await client.signUp(.leancloud, "token-holder")
            #expect(try await client.request(.leancloud, .get, "/users/\(user.id)", auth: .master).json["sessionToken"]?.stringValue == user.token)
            #expect(try await client.request(.leancloud, .get, "/users/\(user.id)", auth: .session(user.token)).json["sessionToken"] == nil)
            #expect(try await client.request(.leancloud, .get, "/users/\(user.id)").json["sessionToken"] == nil)
        }
    }

    @Test("LeanCloud answers a missing user with 211 (not an empty object)")
    func missingUser() async throws {
        try await TestServer.with { client in
            _ = try await client.signUp(.leancloud, "present")
            for path in ["/users/ffffffffffffffffffffffff", "/classes/_User/ffffffffffffffffffffffff"] {
                let reply = try await client.request(.leancloud, .get, path)
                #expect(reply.status == 400)
                #expect(reply.code == 211)
            }
        }
    }

    @Test("authData is shown to its user and the master key only, also when a user is included")
    func authDataVisibility() async throws {
        try await TestServer.with { client in
            let user = try await client.signUp(.leancloud, "linked")
            let other = try await client.signUp(.leancloud, "stranger")
            let authData: JSON = ["github": ["uid": "42", "access_token": "t"]]
            #expect(try await client.request(.leancloud, .put, "/users/\(user.id)", json: ["authData": authData], auth: .master).status == 200)
            #expect(try await client.request(.leancloud, .get, "/users/\(user.id)", auth: .session(user.token)).json["authData"] == authData)
            #expect(try await client.request(.leancloud, .get, "/users/\(user.id)", auth: .master).json["authData"] == authData)
            #expect(try await client.request(.leancloud, .get, "/users/\(user.id)", auth: .session(other.token)).json["authData"] == nil)
            let post = try await client.create(.leancloud, "Post", ["author": ["__type": "Pointer", "className": "_User", "objectId": .string(user.id)]])
            let included = try await client.request(.leancloud, .get, "/classes/Post/\(post)?include=author", auth: .session(other.token))
            #expect(included.json["author"]?["username"] == "linked")
            #expect(included.json["author"]?["authData"] == nil)
            let own = try await client.request(.leancloud, .get, "/classes/Post/\(post)?include=author", auth: .session(user.token))
            #expect(own.json["author"]?["authData"] == authData)
        }
    }

    @Test("users are created by sign-up only, and sessions through the session endpoints")
    func protectedClasses() async throws {
        try await TestServer.with { client in
            let batch = try await client.request(.leancloud, .post, "/batch", json: [
                "requests": [["method": "POST", "path": "/1.1/classes/_Session", "body": ["user": "x"]]],
            ])
            #expect(batch.json[0]?["error"]?["code"] == 403)
            let transaction = try await client.request(.leancloud, .post, "/batch", json: [
                "transaction": true, "requests": [["method": "POST", "path": "/1.1/classes/_User", "body": ["username": "t", "password": "p"]]],
            ])
            #expect(transaction.status == 400)
        }
    }
}
