import CirrusModel
import CirrusTesting
import Testing

@Suite("Method override, CORS, unknown routes and body limits")
struct TransportTests {
    static let keys = TestServer.keys
    static let textPlain = ["Content-Type": "text/plain"]

    static func overrideBody(_ members: [String: JSON]) -> String {
        JSONWriter.string(.object(members))
    }

    @Test("a text/plain POST with _method, _ApplicationId and _ApplicationKey runs as PUT, GET and DELETE")
    func leancloudOverride() async throws {
        try await TestServer.with { client in
            let id = try await client.create(.leancloud, "GameScore", ["score": 1])
            let credentials: [String: JSON] = ["_ApplicationId": .string(Self.keys.appId), "_ApplicationKey": .string(Self.keys.appKey)]

            var put = credentials
            put["_method"] = "PUT"
            put["score"] = 5
            let updated = try await client.request(.leancloud, .post, "/classes/GameScore/\(id)", body: Self.overrideBody(put), auth: .none, headers: Self.textPlain)
            #expect(updated.status == 200, "\(updated.bodyText)")
            #expect(updated.keys == ["objectId", "updatedAt"])

            var get = credentials
            get["_method"] = "GET"
            let fetched = try await client.request(.leancloud, .post, "/classes/GameScore/\(id)", body: Self.overrideBody(get), auth: .none, headers: Self.textPlain)
            #expect(fetched.status == 200)
            #expect(fetched.json["score"] == 5)
            #expect(fetched.keys == ["createdAt", "objectId", "score", "updatedAt"])

            var find = credentials
            find["_method"] = "GET"
            find["where"] = ["score": 5]
            find["keys"] = "score"
            let found = try await client.request(.leancloud, .post, "/classes/GameScore", body: Self.overrideBody(find), auth: .none, headers: Self.textPlain)
            #expect(found.json["results"]?.arrayValue?.count == 1)

            var delete = credentials
            delete["_method"] = "DELETE"
            let deleted = try await client.request(.leancloud, .post, "/classes/GameScore/\(id)", body: Self.overrideBody(delete), auth: .none, headers: Self.textPlain)
            #expect(deleted.status == 200)
            #expect(deleted.json == [:])
            #expect(try await client.fetch(.leancloud, "GameScore", id).json == [:])
        }
    }

    @Test("a text/plain create with _ApplicationId and _SessionToken stores only the real fields and acts as the session's user")
    func overrideCreate() async throws {
        try await TestServer.with { client in
            let signUp = try await client.request(.leancloud, .post, "/users", json: ["username": "browser", "password": "pw"])
            let token = try #require(signUp.json["sessionToken"]?.stringValue)
            let userId = try #require(signUp.json["objectId"]?.stringValue)
            let body = Self.overrideBody([
                "_ApplicationId": .string(Self.keys.appId), "_ApplicationKey": .string(Self.keys.appKey), "_SessionToken": .string(token),
                "_ClientVersion": "js4.15.3", "_InstallationId": "i", "score": 7, "ACL": [.init(stringLiteral: userId): ["read": true]],
            ])
            let created = try await client.request(.leancloud, .post, "/classes/GameScore", body: body, auth: .none, headers: Self.textPlain)
            #expect(created.status == 201, "\(created.bodyText)")
            let id = try #require(created.json["objectId"]?.stringValue)
            let fetched = try await client.request(.leancloud, .get, "/classes/GameScore/\(id)", auth: .session(token))
            #expect(fetched.keys == ["createdAt", "objectId", "score", "updatedAt"])
            let read = Self.overrideBody([
                "_method": "GET", "_ApplicationId": .string(Self.keys.appId), "_ApplicationKey": .string(Self.keys.appKey),
                "_SessionToken": .string(token),
            ])
            let overridden = try await client.request(.leancloud, .post, "/classes/GameScore/\(id)", body: read, auth: .none, headers: Self.textPlain)
            #expect(overridden.json["score"] == 7)
            let forged = Self.overrideBody([
                "_ApplicationId": .string(Self.keys.appId), "_ApplicationKey": .string(Self.keys.appKey), "_SessionToken": "forged",
                "score": 8,
            ])
            let refused = try await client.request(.leancloud, .post, "/classes/GameScore", body: forged, auth: .none, headers: Self.textPlain)
            #expect(refused.status == 403)
        }
    }

    @Test("a _MasterKey in a body gives no rights at all", arguments: [
        ["_MasterKey": JSON.string(TestServer.keys.masterKey)],
        ["_MasterKey": JSON.string(TestServer.keys.masterKey), "_ApplicationKey": "wrong"],
        ["_MasterKey": JSON.string(TestServer.keys.masterKey), "_ApplicationKey": JSON.string(TestServer.keys.masterKey + ",master")],
    ])
    func masterKeyInBody(_ extra: [String: JSON]) async throws {
        try await TestServer.with { client in
            var members = extra
            members["_ApplicationId"] = .string(Self.keys.appId)
            members["n"] = 1
            for endpoint in [Endpoint.leancloud, .parseMounted] {
                let reply = try await client.request(endpoint, .post, "/classes/Secret", body: Self.overrideBody(members), auth: .none, headers: Self.textPlain)
                #expect(reply.status == 401, "\(endpoint.testDescription): \(reply.bodyText)")
            }
            #expect(try await client.request(.leancloud, .get, "/classes/Secret?count=1&limit=0").json["count"] == 0)
        }
    }

    @Test("Parse's method override takes _JavaScriptKey")
    func parseOverride() async throws {
        try await TestServer.with { client in
            let id = try await client.create(.parseMounted, "GameScore", ["score": 1])
            let body = Self.overrideBody(["_method": "GET", "_ApplicationId": .string(Self.keys.appId), "_JavaScriptKey": .string(Self.keys.appKey)])
            let reply = try await client.request(.parseMounted, .post, "/classes/GameScore/\(id)", body: body, auth: .none, headers: Self.textPlain)
            #expect(reply.status == 200)
            #expect(reply.json["score"] == 1)
        }
    }

    @Test("a CORS preflight answers 204 with the allowed methods and headers", arguments: Endpoint.all)
    func preflight(_ endpoint: Endpoint) async throws {
        try await TestServer.with { client in
            let reply = try await client.request(endpoint, .options, "/classes/GameScore", body: nil, auth: .none, headers: [
                "Origin": "https://example.com", "Access-Control-Request-Method": "PUT", "Access-Control-Request-Headers": "x-lc-id, x-lc-sign, content-type",
            ])
            #expect(reply.status == 204)
            #expect(reply.header("Access-Control-Allow-Origin") == "*")
            #expect(reply.header("Access-Control-Allow-Methods")?.contains("PUT") == true)
            #expect(reply.header("Access-Control-Allow-Headers") == "x-lc-id, x-lc-sign, content-type")
            let plain = try await client.request(endpoint, .options, "/classes/GameScore/abc", body: nil, auth: .none)
            #expect(plain.status == 204)
            #expect(plain.header("Access-Control-Allow-Headers")?.lowercased().contains("x-lc-id") == true)
        }
    }

    @Test("every reply carries Access-Control-Allow-Origin and a JSON content type")
    func corsOnReplies() async throws {
        try await TestServer.with { client in
            let replies = [
                try await client.request(.leancloud, .post, "/classes/GameScore", json: ["n": 1]),
                try await client.request(.leancloud, .get, "/classes/GameScore"),
                try await client.request(.leancloud, .get, "/classes/GameScore", auth: .none),
                try await client.request(.parse, .get, "/classes/1bad/x"),
                try await client.request(.bmob, .get, "/nothing"),
                try await client.send(.leancloud, .get, "/elsewhere", json: nil),
            ]
            for reply in replies {
                #expect(reply.header("Access-Control-Allow-Origin") == "*")
                #expect(reply.header("Content-Type") == "application/json; charset=utf-8")
                #expect(reply.json != .null, "\(reply.bodyText)")
            }
        }
    }

    @Test("unknown paths answer a JSON 404 in the dialect", arguments: Endpoint.all)
    func unknownPath(_ endpoint: Endpoint) async throws {
        try await TestServer.with { client in
            for path in ["/nothing", "/classes", "/classes/A/b/c", "/"] {
                let reply = try await client.request(endpoint, .get, path)
                #expect(reply.status == 404, "\(path): \(reply.bodyText)")
                #expect(reply.code == (endpoint.dialect == .leancloud ? 1 : 101))
            }
            let outside = try await client.send(.leancloud, .get, "/v2/classes/A", json: nil)
            #expect(outside.status == 404)
            #expect(outside.code != nil)
        }
    }

    @Test("a known path with an unsupported method answers a JSON 405", arguments: Endpoint.all)
    func unknownMethod(_ endpoint: Endpoint) async throws {
        try await TestServer.with { client in
            let id = try await client.create(endpoint, "GameScore", ["n": 1])
            for (method, path) in [(HTTPRequest.Method.patch, "/classes/GameScore/\(id)"), (.delete, "/classes/GameScore"), (.put, "/batch"), (.post, "/date")] {
                if endpoint.isBmob, path == "/date" { continue }
                let reply = try await client.request(endpoint, method, path, json: [:])
                #expect(reply.status == 405, "\(method) \(path): \(reply.bodyText)")
                #expect(reply.code != nil)
                #expect(reply.json["error"]?.stringValue?.isEmpty == false)
            }
        }
    }

    @Test("a body over the limit answers a JSON 413", arguments: Endpoint.dialects)
    func bodyTooLarge(_ endpoint: Endpoint) async throws {
        try await TestServer.with(maximumBodySize: 1000) { client in
            let reply = try await client.request(endpoint, .post, "/classes/Big", json: ["text": .string(String(repeating: "x", count: 2000))])
            #expect(reply.status == 413)
            let expected: Int64 = switch endpoint.dialect {
            case .leancloud: 413
            case .parse: 130
            case .bmob: 107
            }
            #expect(reply.code == expected)
            #expect(try await client.request(.leancloud, .get, "/classes/Big?count=1&limit=0").json["count"] == 0)
        }
    }
}
