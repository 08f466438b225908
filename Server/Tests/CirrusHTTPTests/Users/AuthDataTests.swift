import CirrusModel
import CirrusServer
import CirrusTesting
import Testing

/// Third-party log-in with `authData`: sign-up or log-in, failOnNotExist, linking, UnionID and anonymous users.
@Suite("Third-party log-in")
struct AuthDataTests {
    static let github: JSON = ["github": ["uid": "gh-1", "access_token": "t1"]]

    /// The platforms these tests log in with, trusted as sent (the provider checks have their own tests).
    static let trusting: @Sendable (inout ServerConfiguration) -> Void = {
        $0.authData.trustedPlatforms = ["github", "weixin", "weibo", "wxleanoffice", "wxleansupport"]
    }

    @Test("a new account signs up (201, a 25-character username), the same account logs in again (200, same user and token)")
    func signUpThenLogIn() async throws {
        try await TestServer.with(configure: Self.trusting) { client in
            let first = try await client.request(.leancloud, .post, "/users", json: ["authData": Self.github])
            #expect(first.status == 201)
            #expect(WireFormat.matches(first.json["username"]?.stringValue, "[0-9a-z]{25}"))
            #expect(first.json["authData"] == Self.github)
            let id = try #require(first.json["objectId"]?.stringValue)
            let again = try await client.request(.leancloud, .post, "/classes/_User", json: ["authData": ["github": ["uid": "gh-1", "access_token": "t2"]]])
            #expect(again.status == 200)
            #expect(again.json["objectId"]?.stringValue == id)
            #expect(again.json["createdAt"] == first.json["createdAt"])
            #expect(again.json["sessionToken"] == first.json["sessionToken"])
            #expect(again.json["authData"]?["github"]?["access_token"] == "t2")
            let stranger = try await client.signUp(.leancloud, "stranger")
            #expect(try await client.request(.leancloud, .get, "/users/\(id)", auth: .session(stranger.token)).json["authData"] == nil)
        }
    }

    @Test("failOnNotExist answers 211 for an unknown account and logs in a known one (R#108)", arguments: Endpoint.dialects)
    func failOnNotExist(_ endpoint: Endpoint) async throws {
        try await TestServer.with(configure: Self.trusting) { client in
            let unknown = try await client.request(endpoint, .post, "/users?failOnNotExist=true", json: ["authData": Self.github])
            #expect(unknown.status == (endpoint.dialect == .parse ? 404 : 400))
            #expect(unknown.code == (endpoint.dialect == .leancloud ? 211 : 101))
            #expect(try await client.request(endpoint, .get, "/classes/_User?count=1&limit=0", auth: .master).json["count"] == 0)
            _ = try await client.request(endpoint, .post, "/users", json: ["authData": Self.github, "username": "given", "mobilePhoneNumber": "+8618611111111"])
            let known = try await client.request(endpoint, .post, "/users?failOnNotExist=true", json: ["authData": Self.github])
            #expect(known.status == 200)
            #expect(known.json["username"] == "given")
            #expect(known.json["mobilePhoneNumber"] == "+8618611111111")
        }
    }

    @Test("a second platform links through PUT and merges; unlinking uses the dotted key; a taken account is refused (R#107)")
    func linkAndUnlink() async throws {
        try await TestServer.with(configure: Self.trusting) { client in
            let user = try await client.signUp(.leancloud, "linker")
            let weixin: JSON = ["weixin": ["openid": "wx-1", "access_token": "w"]]
            let linked = try await client.request(.leancloud, .put, "/classes/_User/\(user.id)?new=true", json: ["authData": Self.github], auth: .session(user.token))
            #expect(linked.status == 200)
            _ = try await client.request(.leancloud, .put, "/users/\(user.id)", json: ["authData": weixin], auth: .session(user.token))
            let both = try await client.request(.leancloud, .get, "/users/me", auth: .session(user.token))
            #expect(both.json["authData"]?["github"]?["uid"] == "gh-1")
            #expect(both.json["authData"]?["weixin"]?["openid"] == "wx-1")
            let viaWeixin = try await client.request(.leancloud, .post, "/users", json: ["authData": weixin])
            #expect(viaWeixin.json["objectId"]?.stringValue == user.id)
            let other = try await client.signUp(.leancloud, "other")
            let taken = try await client.request(.leancloud, .put, "/users/\(other.id)", json: ["authData": Self.github], auth: .session(other.token))
            #expect(taken.code == 208)
            _ = try await client.request(.leancloud, .put, "/users/\(user.id)", json: ["authData.weixin": ["__op": "Delete"]], auth: .session(user.token))
            let after = try await client.request(.leancloud, .get, "/users/me", auth: .session(user.token))
            #expect(after.json["authData"]?["weixin"] == nil)
            #expect(after.json["authData"]?["github"] != nil)
            let fresh = try await client.request(.leancloud, .post, "/users", json: ["authData": weixin])
            #expect(fresh.status == 201)
            #expect(fresh.json["objectId"]?.stringValue != user.id)
        }
    }

    @Test("UnionID: a main account gets _<platform>_unionid, another platform with the same unionid logs into it (R#109)")
    func unionId() async throws {
        try await TestServer.with(configure: Self.trusting) { client in
            let main: JSON = ["wxleanoffice": ["uid": "o1", "access_token": "a", "unionid": "u-1", "platform": "weixin", "main_account": true]]
            let first = try await client.request(.leancloud, .post, "/users", json: ["authData": main])
            #expect(first.status == 201)
            #expect(first.json["authData"]?["_weixin_unionid"] == ["uid": "u-1"])
            let second: JSON = ["wxleansupport": ["uid": "o2", "access_token": "b", "unionid": "u-1", "platform": "weixin", "main_account": false]]
            let merged = try await client.request(.leancloud, .post, "/users", json: ["authData": second])
            #expect(merged.status == 200)
            #expect(merged.json["objectId"] == first.json["objectId"])
            #expect(merged.json["authData"]?["wxleanoffice"]?["uid"] == "o1")
            #expect(merged.json["authData"]?["wxleansupport"]?["uid"] == "o2")
            let unrelated: JSON = ["wxleansupport": ["uid": "o3", "unionid": "u-2", "platform": "weixin", "main_account": false]]
            let separate = try await client.request(.leancloud, .post, "/users", json: ["authData": unrelated])
            #expect(separate.status == 201)
            #expect(separate.json["authData"]?["_weixin_unionid"] == nil)
        }
    }

    @Test("an anonymous user signs up by id and becomes a regular user by setting a username and password (R#103, R#104)")
    func anonymous() async throws {
        try await TestServer.with(configure: Self.trusting) { client in
            let anonymous = try await client.request(.leancloud, .post, "/users", json: ["authData": ["anonymous": ["id": "0f3c-uuid"]]])
            #expect(anonymous.status == 201)
            let id = try #require(anonymous.json["objectId"]?.stringValue)
            let token = try #require(anonymous.json["sessionToken"]?.stringValue)
            let converted = try await client.request(.leancloud, .put, "/users/\(id)", json: ["username": "real", "password": "pw-9"], auth: .session(token))
            #expect(converted.status == 200)
            #expect(try await client.request(.leancloud, .get, "/users/me", auth: .session(token)).json["authData"] == [:])
            #expect(try await client.logIn(.leancloud, "real", "pw-9").json["objectId"]?.stringValue == id)
        }
    }

    /// A provider check that accepts only the access token `good`.
    struct TokenValidator: AuthDataValidator {
        func validate(platform: String, data: JSON) async throws {
            guard data["access_token"] == "good" else { throw APIError(.invalidLinkedSession, "invalid authData: \(platform) refused the token.") }
        }
    }

    @Test("an installed validator refuses log-ins and links whose provider check fails, before anything is written")
    func validator() async throws {
        try await TestServer.with(configure: { $0.authDataValidator = TokenValidator() }) { client in
            let refused = try await client.request(.leancloud, .post, "/users", json: ["authData": ["github": ["uid": "v1", "access_token": "bad"]]])
            #expect(refused.code == 251)
            #expect(try await client.request(.leancloud, .get, "/classes/_User?count=1&limit=0", auth: .master).json["count"] == 0)
            let accepted = try await client.request(.leancloud, .post, "/users", json: ["authData": ["github": ["uid": "v1", "access_token": "good"]]])
            #expect(accepted.status == 201)
            let token = try #require(accepted.json["sessionToken"]?.stringValue)
            let id = try #require(accepted.json["objectId"]?.stringValue)
            let link = try await client.request(.leancloud, .put, "/users/\(id)", json: ["authData": ["weibo": ["uid": "w", "access_token": "bad"]]], auth: .session(token))
            #expect(link.code == 251)
            let dotted = try await client.request(.leancloud, .put, "/users/\(id)", json: ["authData.weibo": ["uid": "w", "access_token": "bad"]], auth: .session(token))
            #expect(dotted.code == 251)
            #expect(try await client.request(.leancloud, .get, "/users/me", auth: .session(token)).json["authData"]?["weibo"] == nil)
        }
    }

    @Test("malformed authData is refused with 250 and creates nothing")
    func malformed() async throws {
        try await TestServer.with(configure: Self.trusting) { client in
            for authData in [JSON.string("x"), [:], ["github": ["access_token": "t"]], ["github": "uid"], ["bad key": ["uid": "1"]]] {
                let reply = try await client.request(.leancloud, .post, "/users", json: ["authData": authData])
                #expect(reply.status == 400, "\(authData)")
                #expect(reply.code == 250, "\(authData): \(reply.bodyText)")
            }
            #expect(try await client.request(.leancloud, .get, "/classes/_User?count=1&limit=0", auth: .master).json["count"] == 0)
        }
    }
}
