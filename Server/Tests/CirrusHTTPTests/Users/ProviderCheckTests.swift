import CirrusModel
import CirrusServer
import CirrusServices
import CirrusTesting
import Foundation
import Testing

/// The providers' token checks, against stand-in providers over a real socket: valid tokens log in, forged, expired,
/// foreign-app and wrong-account ones are refused (251), a provider down or stalling answers 502 in time.
@Suite("Third-party token checks")
struct ProviderCheckTests {
    /// A server that checks every built-in platform with the stand-ins at `base`. The stand-ins answer at once, but
    /// beside hundreds of parallel tests on CI's two cores a loopback exchange once took over 5 s: only the tests of a
    /// provider that stalls give a short timeout.
    static func checking(_ base: String, appleKeys: String? = nil, timeout: Duration = .seconds(60)) -> @Sendable (inout ServerConfiguration) -> Void {
        { configuration in
            configuration.authData = AuthDataSettings(
                verifiedPlatforms: ["weixin": .weixin, "wxapp": .weixin, "qq": .qq, "weibo": .weibo, "lc_apple": .apple],
                appleAudiences: ["com.example.app"], appleKeysURL: appleKeys ?? base + "/auth/keys", weixinURL: base, qqURL: base,
                qqAppIds: ["qq-app"], weiboURL: base, weiboAppKeys: ["wb-key"], timeout: timeout
            )
        }
    }

    struct Case: Sendable, CustomTestStringConvertible {
        let name: String
        let authData: @Sendable (AuthProviderTestServer) throws -> JSON
        /// The LeanCloud code expected, `nil` for a successful log-in.
        let code: Int64?

        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(name: "weixin: a valid token", authData: { _ in ["weixin": ["openid": "wx-1", "access_token": "wx-good"]] }, code: nil),
        Case(name: "weixin: a made-up token", authData: { _ in ["weixin": ["openid": "wx-1", "access_token": "made-up"]] }, code: 251),
        Case(name: "weixin: a valid token for another openid", authData: { _ in ["weixin": ["openid": "victim", "access_token": "wx-good"]] }, code: 251),
        Case(name: "weixin: uid beside openid is what is checked", authData: { _ in ["weixin": ["uid": "victim", "openid": "wx-1", "access_token": "wx-good"]] }, code: 251),
        Case(name: "weixin: the token's UnionID", authData: { _ in ["wxapp": ["openid": "wx-1", "access_token": "wx-good", "unionid": "union-1", "platform": "weixin"]] }, code: nil),
        Case(name: "weixin: another UnionID", authData: { _ in ["wxapp": ["openid": "wx-1", "access_token": "wx-good", "unionid": "victim-union", "platform": "weixin"]] }, code: 251),
        Case(name: "weixin: no token", authData: { _ in ["weixin": ["openid": "wx-1"]] }, code: 250),
        Case(name: "qq: a valid token", authData: { _ in ["qq": ["openid": "qq-1", "access_token": "qq-good"]] }, code: nil),
        Case(name: "qq: the token's UnionID", authData: { _ in ["qq": ["openid": "qq-1", "access_token": "qq-good", "unionid": "union-q"]] }, code: nil),
        Case(name: "qq: a made-up token", authData: { _ in ["qq": ["openid": "qq-1", "access_token": "made-up"]] }, code: 251),
        Case(name: "qq: another openid", authData: { _ in ["qq": ["openid": "victim", "access_token": "qq-good"]] }, code: 251),
        Case(name: "qq: another app's token", authData: { _ in ["qq": ["openid": "qq-1", "access_token": "qq-other-app"]] }, code: 251),
        Case(name: "weibo: a valid token", authData: { _ in ["weibo": ["uid": "1001", "access_token": "wb-good"]] }, code: nil),
        Case(name: "weibo: a made-up token", authData: { _ in ["weibo": ["uid": "1001", "access_token": "made-up"]] }, code: 251),
        Case(name: "weibo: another uid", authData: { _ in ["weibo": ["uid": "1002", "access_token": "wb-good"]] }, code: 251),
        Case(name: "weibo: another app's token", authData: { _ in ["weibo": ["uid": "1001", "access_token": "wb-other-app"]] }, code: 251),
        Case(name: "weibo: an expired token", authData: { _ in ["weibo": ["uid": "1001", "access_token": "wb-expired"]] }, code: 251),
        Case(name: "apple: a valid identity token", authData: { server in
            ["lc_apple": ["uid": "apple-1", "identity_token": .string(try server.appleToken(subject: "apple-1", audience: "com.example.app"))]]
        }, code: nil),
        Case(name: "apple: a token signed by another key", authData: { server in
            ["lc_apple": ["uid": "apple-1", "identity_token": .string(try server.appleToken(subject: "apple-1", audience: "com.example.app", forged: true))]]
        }, code: 251),
        Case(name: "apple: an expired token", authData: { server in
            ["lc_apple": ["uid": "apple-1", "identity_token": .string(try server.appleToken(subject: "apple-1", audience: "com.example.app", expiresAt: Date().addingTimeInterval(-3600)))]]
        }, code: 251),
        Case(name: "apple: a token for another app", authData: { server in
            ["lc_apple": ["uid": "apple-1", "identity_token": .string(try server.appleToken(subject: "apple-1", audience: "com.attacker.app"))]]
        }, code: 251),
        Case(name: "apple: a token of another user", authData: { server in
            ["lc_apple": ["uid": "victim", "identity_token": .string(try server.appleToken(subject: "apple-1", audience: "com.example.app"))]]
        }, code: 251),
        Case(name: "apple: a token from another issuer", authData: { server in
            ["lc_apple": ["uid": "apple-1", "identity_token": .string(try server.appleToken(subject: "apple-1", audience: "com.example.app", issuer: "https://evil.example"))]]
        }, code: 251),
        Case(name: "apple: an unknown key id", authData: { server in
            ["lc_apple": ["uid": "apple-1", "identity_token": .string(try server.appleToken(subject: "apple-1", audience: "com.example.app", keyId: "k9"))]]
        }, code: 251),
        Case(name: "apple: not a JWT", authData: { _ in ["lc_apple": ["uid": "apple-1", "identity_token": "a.b"]] }, code: 251),
        Case(name: "a platform nothing verifies", authData: { _ in ["github": ["uid": "1", "access_token": "t"]] }, code: 252),
    ]

    @Test("a log-in is accepted only with a token the provider vouches for, for that account and app", arguments: cases)
    func check(_ entry: Case) async throws {
        try await AuthProviderTestServer.with { providers in
            try await TestServer.with(configure: Self.checking(providers.baseURL)) { client in
                let reply = try await client.request(.leancloud, .post, "/users", json: ["authData": try entry.authData(providers)])
                if let code = entry.code {
                    #expect(reply.status == 400, "\(reply.bodyText)")
                    #expect(reply.code == code, "\(reply.bodyText)")
                    #expect(try await client.request(.leancloud, .get, "/classes/_User?count=1&limit=0", auth: .master).json["count"] == 0)
                } else {
                    #expect(reply.status == 201, "\(reply.bodyText)")
                    #expect(reply.json["sessionToken"]?.stringValue != nil)
                }
            }
        }
    }

    @Test("Apple's keys are fetched once for concurrent first log-ins, and unknown key ids do not fetch them again within a minute")
    func appleKeyCache() async throws {
        let clock = TestClock(Timestamp.now())
        var settings = TestServer.fastAccounts
        settings.clock = { clock.now() }
        let accounts = settings
        try await AuthProviderTestServer.with { providers in
            try await TestServer.with(accounts: accounts, configure: Self.checking(providers.baseURL)) { client in
                let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
                    for index in 0..<8 {
                        let token = try providers.appleToken(subject: "apple-\(index)", audience: "com.example.app")
                        group.addTask {
                            try await client.request(.leancloud, .post, "/users", json: ["authData": ["lc_apple": ["uid": .string("apple-\(index)"), "identity_token": .string(token)]]]).status
                        }
                    }
                    return try await group.reduce(into: [Int]()) { $0.append($1) }
                }
                #expect(statuses == Array(repeating: 201, count: 8))
                #expect(providers.appleKeyFetches == 1)
                for keyId in ["k7", "k8", "k9"] {
                    let token = try providers.appleToken(subject: "apple-x", audience: "com.example.app", keyId: keyId)
                    #expect(try await client.request(.leancloud, .post, "/users", json: ["authData": ["lc_apple": ["uid": "apple-x", "identity_token": .string(token)]]]).code == 251)
                }
                #expect(providers.appleKeyFetches == 1)
                clock.advance(seconds: 61)
                let later = try providers.appleToken(subject: "apple-x", audience: "com.example.app", keyId: "k9")
                #expect(try await client.request(.leancloud, .post, "/users", json: ["authData": ["lc_apple": ["uid": "apple-x", "identity_token": .string(later)]]]).code == 251)
                #expect(providers.appleKeyFetches == 2)
            }
        }
    }

    @Test("a link through PUT is checked as a log-in is; the account then logs in to that user")
    func link() async throws {
        try await AuthProviderTestServer.with { providers in
            try await TestServer.with(configure: Self.checking(providers.baseURL)) { client in
                let user = try await client.signUp(.leancloud, "linker")
                let forged = try await client.request(
                    .leancloud, .put, "/users/\(user.id)", json: ["authData.weibo": ["uid": "1001", "access_token": "made-up"]], auth: .session(user.token)
                )
                #expect(forged.code == 251)
                let linked = try await client.request(
                    .leancloud, .put, "/users/\(user.id)", json: ["authData": ["weibo": ["uid": "1001", "access_token": "wb-good"]]], auth: .session(user.token)
                )
                #expect(linked.status == 200, "\(linked.bodyText)")
                let again = try await client.request(.leancloud, .post, "/users", json: ["authData": ["weibo": ["uid": "1001", "access_token": "wb-good"]]])
                #expect(again.status == 200)
                #expect(again.json["objectId"] == .string(user.id))
            }
        }
    }

    @Test("a provider that is down, fails or stalls answers 502 within the timeout, and creates nothing", arguments: ["closed", "fail", "hang"])
    func unavailable(_ state: String) async throws {
        try await AuthProviderTestServer.with { providers in
            let base = state == "closed" ? try AuthProviderTestServer.closedURL() : providers.baseURL + "/" + state
            try await TestServer.with(configure: Self.checking(base, timeout: .seconds(1))) { client in
                let started = ContinuousClock.now
                let reply = try await client.request(.leancloud, .post, "/users", json: ["authData": ["weixin": ["openid": "wx-1", "access_token": "wx-good"]]])
                // The stalling provider would answer after a minute: the 1 s timeout ends the wait (with room for a loaded machine).
                #expect(ContinuousClock.now - started < .seconds(30))
                #expect(reply.status == 502, "\(reply.bodyText)")
                #expect(reply.json["error"]?.stringValue?.contains("weixin") == true)
                let apple = try await client.request(.leancloud, .post, "/users", json: ["authData": ["lc_apple": ["uid": "apple-1", "identity_token": .string(try providers.appleToken(subject: "apple-1", audience: "com.example.app"))]]])
                #expect(apple.status == 502, "\(apple.bodyText)")
                #expect(try await client.request(.leancloud, .get, "/classes/_User?count=1&limit=0", auth: .master).json["count"] == 0)
            }
        }
    }

    @Test("a check without its settings is refused at start: Apple needs the bundle ids, Weibo the app keys")
    func settingsProblems() {
        #expect(AuthDataSettings(verifiedPlatforms: ["lc_apple": .apple]).problem != nil)
        #expect(AuthDataSettings(verifiedPlatforms: ["weibo": .weibo]).problem != nil)
        #expect(AuthDataSettings(verifiedPlatforms: ["weixin": .weixin, "qq": .qq]).problem == nil)
        #expect(AuthProvider(platform: "lc_apple") == .apple)
        #expect(AuthProvider(platform: "github") == nil)
    }
}
