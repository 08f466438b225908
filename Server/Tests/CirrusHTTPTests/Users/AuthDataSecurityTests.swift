import CirrusModel
import CirrusServer
import CirrusServices
import CirrusTesting
import Testing

/// Account takeover by third-party data: what the server accepts by default, the trust setting, anonymous log-in, the
/// shapes of `authData` writes, and one user per account whatever the concurrency.
@Suite("Third-party log-in security")
struct AuthDataSecurityTests {
    /// A victim whose WeChat account the master key linked (as an import or the app's own server would).
    static func victim(_ client: TestClient) async throws -> SignedUpUser {
        let victim = try await client.signUp(.leancloud, "victim")
        let linked = try await client.request(
            .leancloud, .put, "/users/\(victim.id)", json: ["authData": ["weixin": ["openid": "victim-openid", "access_token": "real"]]], auth: .master
        )
        #expect(linked.status == 200, "\(linked.bodyText)")
        return victim
    }

    @Test("by default a made-up token for a victim's uid is refused (252) on every path, and the victim's authData is unchanged")
    func defaultRefuses() async throws {
        try await TestServer.with { client in
            let victim = try await Self.victim(client)
            let forged: JSON = ["weixin": ["openid": "victim-openid", "access_token": "made-up"]]
            for endpoint in Endpoint.dialects {
                let reply = try await client.request(endpoint, .post, "/users", json: ["authData": forged])
                #expect(reply.status == 400, "\(endpoint.testDescription): \(reply.bodyText)")
                #expect(reply.code == (endpoint.dialect == .bmob ? 208 : 252), "\(endpoint.testDescription)")
                #expect(reply.json["sessionToken"] == nil)
            }
            let viaClasses = try await client.request(.leancloud, .post, "/classes/_User", json: ["authData": forged])
            #expect(viaClasses.code == 252)
            let batch = try await client.request(.leancloud, .post, "/batch", json: ["requests": [
                ["method": "POST", "path": "/1.1/users", "body": ["authData": forged]],
            ]])
            #expect(batch.json[0]?["error"]?["code"] == 252)
            let cql = try await CloudQueryTests.cql(
                client, "insert into _User(username, password, authData) values ('sneaky', 'pw-123', ?)", pvalues: JSONWriter.string([forged])
            )
            #expect(cql.status == 403 || cql.code == 252, "\(cql.bodyText)")
            let attacker = try await client.signUp(.leancloud, "attacker")
            for body: JSON in [["authData": forged], ["authData.weixin": forged["weixin"] ?? .null]] {
                let link = try await client.request(.leancloud, .put, "/users/\(attacker.id)", json: body, auth: .session(attacker.token))
                #expect(link.code == 252, "\(body): \(link.bodyText)")
            }
            let stored = try await client.request(.leancloud, .get, "/users/\(victim.id)", auth: .master)
            #expect(stored.json["authData"] == ["weixin": ["openid": "victim-openid", "access_token": "real"]])
            #expect(try await client.request(.leancloud, .get, "/classes/_User?count=1&limit=0", auth: .master).json["count"] == 2)
        }
    }

    @Test("anonymous log-in works by default and answers 252 once switched off; a trusted platform logs in as sent, '*' trusts all")
    func anonymousAndTrust() async throws {
        try await TestServer.with { client in
            let anonymous = try await client.request(.leancloud, .post, "/users", json: ["authData": ["anonymous": ["id": "3f2a-uuid"]]])
            #expect(anonymous.status == 201)
            let again = try await client.request(.leancloud, .post, "/users", json: ["authData": ["anonymous": ["id": "3f2a-uuid"]]])
            #expect(again.json["objectId"] == anonymous.json["objectId"])
        }
        try await TestServer.with(configure: { $0.authData.allowsAnonymous = false }) { client async throws in
            let refused = try await client.request(.leancloud, .post, "/users", json: ["authData": ["anonymous": ["id": "3f2a-uuid"]]])
            #expect(refused.code == 252)
        }
        try await TestServer.with(configure: { $0.authData.trustedPlatforms = ["github"] }) { client async throws in
            #expect(try await client.request(.leancloud, .post, "/users", json: ["authData": ["github": ["uid": "1"]]]).status == 201)
            #expect(try await client.request(.leancloud, .post, "/users", json: ["authData": ["gitlab": ["uid": "1"]]]).code == 252)
        }
        try await TestServer.with(configure: { $0.authData.trustedPlatforms = ["*"] }) { client async throws in
            #expect(try await client.request(.leancloud, .post, "/users", json: ["authData": ["gitlab": ["uid": "1"]]]).status == 201)
        }
    }

    @Test("authData changes by platform only: deeper paths, other operations and the server's _<platform>_unionid keys are refused (250)")
    func shapes() async throws {
        try await TestServer.with(configure: { $0.authData.trustedPlatforms = ["*"] }) { client in
            let user = try await client.signUp(.leancloud, "shaper")
            let refused: [JSON] = [
                ["authData.github.uid": "victim"],
                ["authData": ["__op": "Increment", "amount": 1]],
                ["authData.github": ["__op": "Add", "objects": [1]]],
                ["authData": ["_weixin_unionid": ["uid": "victim-union"]]],
                ["authData.github": ["access_token": "no uid"]],
            ]
            for body in refused {
                let reply = try await client.request(.leancloud, .put, "/users/\(user.id)", json: body, auth: .session(user.token))
                #expect(reply.code == 250, "\(body): \(reply.bodyText)")
            }
            let main: JSON = ["authData": ["_weixin_unionid": ["uid": "victim-union"]]]
            #expect(try await client.request(.leancloud, .post, "/users", json: main).code == 250)
            let linked = try await client.request(.leancloud, .put, "/users/\(user.id)", json: ["authData.github": ["uid": "gh-7", "access_token": "t"]], auth: .session(user.token))
            #expect(linked.status == 200, "\(linked.bodyText)")
            #expect(try await client.request(.leancloud, .post, "/users", json: ["authData": ["github": ["uid": "gh-7"]]]).json["objectId"] == .string(user.id))
        }
    }

    @Test("many concurrent first log-ins with one account make exactly one user, and every one of them logs in to it")
    func concurrentSignUps() async throws {
        try await TestServer.with(configure: { $0.authData.trustedPlatforms = ["github"] }) { client in
            let replies = try await withThrowingTaskGroup(of: TestReply.self) { group in
                for index in 0..<24 {
                    group.addTask {
                        try await client.request(.leancloud, .post, "/users", json: ["authData": ["github": ["uid": "race", "access_token": .string("t\(index)")]]])
                    }
                }
                return try await group.reduce(into: [TestReply]()) { $0.append($1) }
            }
            #expect(replies.allSatisfy { $0.status == 200 || $0.status == 201 }, "\(replies.map(\.bodyText))")
            #expect(replies.filter { $0.status == 201 }.count == 1)
            #expect(Set(replies.compactMap { $0.json["objectId"]?.stringValue }).count == 1)
            #expect(try await client.request(.leancloud, .get, "/classes/_User?count=1&limit=0", auth: .master).json["count"] == 1)
        }
    }

    @Test("two users linking one account at once: one gets it, the other 208; unlinking or deleting the user frees it")
    func concurrentLinks() async throws {
        try await TestServer.with(configure: { $0.authData.trustedPlatforms = ["github"] }) { client in
            let users = [try await client.signUp(.leancloud, "first"), try await client.signUp(.leancloud, "second")]
            let codes = try await withThrowingTaskGroup(of: Int64?.self) { group in
                for user in users {
                    group.addTask {
                        let reply = try await client.request(
                            .leancloud, .put, "/users/\(user.id)", json: ["authData": ["github": ["uid": "shared"]]], auth: .session(user.token)
                        )
                        return reply.status == 200 ? 0 : reply.code
                    }
                }
                return try await group.reduce(into: [Int64?]()) { $0.append($1) }
            }
            #expect(codes.sorted { ($0 ?? -1) < ($1 ?? -1) } == [0, 208])
            let holder = try #require(try await client.request(.leancloud, .post, "/users", json: ["authData": ["github": ["uid": "shared"]]]).json["objectId"]?.stringValue)
            let holderUser = try #require(users.first { $0.id == holder })
            let other = try #require(users.first { $0.id != holder })
            _ = try await client.request(.leancloud, .put, "/users/\(holder)", json: ["authData.github": ["__op": "Delete"]], auth: .session(holderUser.token))
            #expect(try await client.request(.leancloud, .put, "/users/\(other.id)", json: ["authData": ["github": ["uid": "shared"]]], auth: .session(other.token)).status == 200)
            #expect(try await client.request(.leancloud, .delete, "/users/\(other.id)", auth: .session(other.token)).status == 200)
            let fresh = try await client.request(.leancloud, .post, "/users", json: ["authData": ["github": ["uid": "shared"]]])
            #expect(fresh.status == 201)
        }
    }
}
