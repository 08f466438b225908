@testable import CirrusHTTP
import CirrusModel
import CirrusServices
import CirrusTesting
import Testing

/// One set of credentials and whether the server must accept it.
struct CredentialCase: Sendable, CustomTestStringConvertible {
    let name: String
    let endpoint: Endpoint
    let headers: [String: String]
    let accepted: Bool

    var testDescription: String { name }
}

@Suite("Authentication in the LeanCloud, Parse and Bmob dialects")
struct AuthenticationTests {
    static let keys = TestServer.keys
    /// An old timestamp (January 2016): LeanCloud accepts signatures of any age.
    static let oldTimestamp = "1453014943466"

    static func sign(_ key: String, _ timestamp: String = oldTimestamp) -> String {
        Authenticator.md5Hex(timestamp + key)
    }

    static let leancloudCases: [CredentialCase] = [
        CredentialCase(name: "LeanCloud app key", endpoint: .leancloud, headers: ["X-LC-Id": keys.appId, "X-LC-Key": keys.appKey], accepted: true),
        CredentialCase(
            name: "LeanCloud master key", endpoint: .leancloud, headers: ["X-LC-Id": keys.appId, "X-LC-Key": keys.masterKey + ",master"],
            accepted: true
        ),
        CredentialCase(
            name: "LeanCloud signature with the app key and an old timestamp", endpoint: .leancloud,
            headers: ["X-LC-Id": keys.appId, "X-LC-Sign": sign(keys.appKey) + "," + oldTimestamp], accepted: true
        ),
        CredentialCase(
            name: "LeanCloud signature with the master key", endpoint: .leancloud,
            headers: ["X-LC-Id": keys.appId, "X-LC-Sign": sign(keys.masterKey, "1700000000000") + ",1700000000000,master"], accepted: true
        ),
        CredentialCase(
            name: "LeanCloud signature in upper-case hex", endpoint: .leancloud,
            headers: ["X-LC-Id": keys.appId, "X-LC-Sign": sign(keys.appKey).uppercased() + "," + oldTimestamp], accepted: false
        ),
        CredentialCase(
            name: "LeanCloud app-key signature claiming master", endpoint: .leancloud,
            headers: ["X-LC-Id": keys.appId, "X-LC-Sign": sign(keys.appKey) + "," + oldTimestamp + ",master"], accepted: false
        ),
        CredentialCase(
            name: "LeanCloud signature over another timestamp", endpoint: .leancloud,
            headers: ["X-LC-Id": keys.appId, "X-LC-Sign": sign(keys.appKey) + ",1453014943467"], accepted: false
        ),
        CredentialCase(
            name: "LeanCloud signature without a timestamp", endpoint: .leancloud,
            headers: ["X-LC-Id": keys.appId, "X-LC-Sign": sign(keys.appKey)], accepted: false
        ),
        CredentialCase(
            name: "legacy X-AVOSCloud app id and key", endpoint: .leancloud,
            headers: ["X-AVOSCloud-Application-Id": keys.appId, "X-AVOSCloud-Application-Key": keys.appKey], accepted: true
        ),
        CredentialCase(
            name: "legacy X-AVOSCloud request signature", endpoint: .leancloud,
            headers: ["X-AVOSCloud-Application-Id": keys.appId, "X-AVOSCloud-Request-Sign": sign(keys.appKey) + "," + oldTimestamp],
            accepted: true
        ),
        CredentialCase(
            name: "legacy X-AVOSCloud master key", endpoint: .leancloud,
            headers: ["X-AVOSCloud-Application-Id": keys.appId, "X-AVOSCloud-Master-Key": keys.masterKey], accepted: true
        ),
        CredentialCase(name: "LeanCloud wrong app id", endpoint: .leancloud, headers: ["X-LC-Id": "other-app", "X-LC-Key": keys.appKey], accepted: false),
        CredentialCase(name: "LeanCloud wrong app key", endpoint: .leancloud, headers: ["X-LC-Id": keys.appId, "X-LC-Key": "wrong"], accepted: false),
        CredentialCase(
            name: "LeanCloud wrong master key", endpoint: .leancloud, headers: ["X-LC-Id": keys.appId, "X-LC-Key": "wrong,master"],
            accepted: false
        ),
        CredentialCase(
            name: "LeanCloud app key sent as a master key", endpoint: .leancloud,
            headers: ["X-LC-Id": keys.appId, "X-LC-Key": keys.appKey + ",master"], accepted: false
        ),
        CredentialCase(name: "LeanCloud without a key", endpoint: .leancloud, headers: ["X-LC-Id": keys.appId], accepted: false),
        CredentialCase(name: "LeanCloud without an app id", endpoint: .leancloud, headers: ["X-LC-Key": keys.appKey], accepted: false),
        CredentialCase(name: "LeanCloud without any header", endpoint: .leancloud, headers: [:], accepted: false),
    ]

    static let parseCases: [CredentialCase] = [
        CredentialCase(
            name: "Parse REST API key", endpoint: .parse,
            headers: ["X-Parse-Application-Id": keys.appId, "X-Parse-REST-API-Key": keys.appKey], accepted: true
        ),
        CredentialCase(
            name: "Parse REST API key under /parse", endpoint: .parseMounted,
            headers: ["X-Parse-Application-Id": keys.appId, "X-Parse-REST-API-Key": keys.appKey], accepted: true
        ),
        CredentialCase(
            name: "Parse client key", endpoint: .parseMounted,
            headers: ["X-Parse-Application-Id": keys.appId, "X-Parse-Client-Key": keys.appKey], accepted: true
        ),
        CredentialCase(
            name: "Parse master key", endpoint: .parse,
            headers: ["X-Parse-Application-Id": keys.appId, "X-Parse-Master-Key": keys.masterKey], accepted: true
        ),
        CredentialCase(
            name: "Parse wrong master key", endpoint: .parse,
            headers: ["X-Parse-Application-Id": keys.appId, "X-Parse-Master-Key": "wrong"], accepted: false
        ),
        CredentialCase(
            name: "Parse wrong app id", endpoint: .parse,
            headers: ["X-Parse-Application-Id": "other-app", "X-Parse-REST-API-Key": keys.appKey], accepted: false
        ),
        CredentialCase(
            name: "Parse wrong key", endpoint: .parseMounted,
            headers: ["X-Parse-Application-Id": keys.appId, "X-Parse-REST-API-Key": "wrong"], accepted: false
        ),
        CredentialCase(name: "Parse without a key", endpoint: .parse, headers: ["X-Parse-Application-Id": keys.appId], accepted: false),
        CredentialCase(name: "Parse without any header", endpoint: .parseMounted, headers: [:], accepted: false),
    ]

    static let bmobCases: [CredentialCase] = [
        CredentialCase(
            name: "Bmob REST API key", endpoint: .bmob,
            headers: ["X-Bmob-Application-Id": keys.appId, "X-Bmob-REST-API-Key": keys.appKey], accepted: true
        ),
        CredentialCase(
            name: "Bmob master key", endpoint: .bmob,
            headers: ["X-Bmob-Application-Id": keys.appId, "X-Bmob-Master-Key": keys.masterKey], accepted: true
        ),
        CredentialCase(
            name: "Bmob wrong master key", endpoint: .bmob,
            headers: ["X-Bmob-Application-Id": keys.appId, "X-Bmob-REST-API-Key": keys.appKey, "X-Bmob-Master-Key": "wrong"],
            accepted: false
        ),
        CredentialCase(
            name: "Bmob wrong app id", endpoint: .bmob,
            headers: ["X-Bmob-Application-Id": "other-app", "X-Bmob-REST-API-Key": keys.appKey], accepted: false
        ),
        CredentialCase(
            name: "Bmob wrong key", endpoint: .bmob, headers: ["X-Bmob-Application-Id": keys.appId, "X-Bmob-REST-API-Key": "wrong"],
            accepted: false
        ),
        CredentialCase(name: "Bmob without a key", endpoint: .bmob, headers: ["X-Bmob-Application-Id": keys.appId], accepted: false),
        CredentialCase(name: "Bmob without an app id", endpoint: .bmob, headers: ["X-Bmob-REST-API-Key": keys.appKey], accepted: false),
    ]

    @Test("credentials are accepted or refused with 401 in the dialect's shape", arguments: leancloudCases + parseCases + bmobCases)
    func credentials(_ credential: CredentialCase) async throws {
        try await TestServer.with { client in
            let reply = try await client.request(
                credential.endpoint, .post, "/classes/AuthProbe", json: ["n": 1], auth: .headers(credential.headers)
            )
            if credential.accepted {
                #expect(reply.status == 201, "\(reply.bodyText)")
                #expect(reply.json["objectId"]?.stringValue != nil)
            } else {
                #expect(reply.status == 401)
                let expected: JSON = credential.endpoint.dialect == .leancloud ? ["code": 401, "error": "Unauthorized."] : ["error": "unauthorized"]
                #expect(reply.json == expected)
                #expect(reply.header("Content-Type")?.hasPrefix("application/json") == true)
            }
        }
    }

    @Test("a refused request writes nothing")
    func refusedWritesNothing() async throws {
        try await TestServer.with { client in
            _ = try await client.create(.leancloud, "Guarded", ["n": 1])
            let refused = try await client.request(.leancloud, .post, "/classes/Guarded", json: ["n": 2], auth: .headers(["X-LC-Id": Self.keys.appId, "X-LC-Key": "wrong"]))
            #expect(refused.status == 401)
            let all = try await client.request(.leancloud, .get, "/classes/Guarded?count=1&limit=0")
            #expect(all.json["count"] == 1)
        }
    }

    @Test("reads need credentials too", arguments: Endpoint.dialects)
    func readsNeedCredentials(_ endpoint: Endpoint) async throws {
        try await TestServer.with { client in
            let id = try await client.create(endpoint, "Guarded", ["n": 1])
            let fetched = try await client.request(endpoint, .get, "/classes/Guarded/\(id)", auth: .none)
            #expect(fetched.status == 401)
            let found = try await client.request(endpoint, .get, "/classes/Guarded", auth: .none)
            #expect(found.status == 401)
        }
    }

    @Test("the signature rule reproduces LeanCloud's documented test vectors")
    func signatureVectors() {
        #expect(Authenticator.md5Hex("1453014943466UtOCzqb67d3sN12Kts4URwy8") == "d5bcbb897e19b2f6633c716dfdfaf9be")
        #expect(Authenticator.md5Hex("1453014943466DyJegPlemooo4X1tg94gQkw1") == "e074720658078c898aa0d4b1b82bdf4b")
        #expect(Authenticator.md5Hex("") == "d41d8cd98f00b204e9800998ecf8427e")
    }

    @Test("the documented signature vectors authenticate against a server with the documented keys")
    func documentedKeys() throws {
        let authenticator = Authenticator(keys: AppKeys(appId: "app", appKey: "UtOCzqb67d3sN12Kts4URwy8", masterKey: "DyJegPlemooo4X1tg94gQkw1"))
        let app = Credentials(appId: "app", signature: "d5bcbb897e19b2f6633c716dfdfaf9be,1453014943466")
        #expect(try authenticator.authenticate(app) == .anonymous)
        let master = Credentials(appId: "app", signature: "e074720658078c898aa0d4b1b82bdf4b,1453014943466,master")
        #expect(try authenticator.authenticate(master) == .master)
        let upper = Credentials(appId: "app", signature: "D5BCBB897E19B2F6633C716DFDFAF9BE,1453014943466")
        #expect(throws: APIError.self) { try authenticator.authenticate(upper) }
    }

    @Test("GET /1.1/date answers the server time without credentials")
    func leancloudDate() async throws {
        try await TestServer.with { client in
            let reply = try await client.request(.leancloud, .get, "/date", auth: .none)
            #expect(reply.status == 200)
            #expect(reply.json["__type"] == "Date")
            #expect(WireFormat.matches(reply.json["iso"]?.stringValue, WireFormat.iso))
            #expect(reply.keys == ["__type", "iso"])
        }
    }

    @Test("Bmob's GET /1/timestamp answers seconds and Beijing time without credentials")
    func bmobTimestamp() async throws {
        try await TestServer.with { client in
            for auth in [TestClient.Auth.none, .appKey] {
                let reply = try await client.request(.bmob, .get, "/timestamp", auth: auth)
                #expect(reply.status == 200, "\(reply.bodyText)")
                #expect(reply.keys == ["datetime", "timestamp"])
                let seconds = try #require(reply.json["timestamp"]?.intValue)
                let expected = Timestamp(millisecondsSince1970: seconds * 1000).format(offsetMinutes: 480, style: .spaced)
                #expect(reply.json["datetime"]?.stringValue == expected)
            }
        }
    }
}
