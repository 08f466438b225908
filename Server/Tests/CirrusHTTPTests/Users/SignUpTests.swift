import CirrusModel
import CirrusTesting
import Testing

@Suite("Sign-up")
struct SignUpTests {
    @Test("LeanCloud sign-up answers 201 with the whole user, both verified flags false and a 25-character token")
    func leanCloudShape() async throws {
        try await TestServer.with { client in
            let reply = try await client.request(
                .leancloud, .post, "/users", json: ["username": "ada", "password": "pw", "email": "ada@example.com", "gender": "f"]
            )
            #expect(reply.status == 201)
            #expect(reply.json["username"] == "ada")
            #expect(reply.json["email"] == "ada@example.com")
            #expect(reply.json["gender"] == "f")
            #expect(reply.json["emailVerified"] == false)
            #expect(reply.json["mobilePhoneVerified"] == false)
            #expect(reply.json["password"] == nil)
            #expect(WireFormat.matches(reply.json["sessionToken"]?.stringValue, "[0-9a-z]{25}"))
            #expect(WireFormat.matches(reply.json["objectId"]?.stringValue, WireFormat.hex24))
            let id = reply.json["objectId"]?.stringValue ?? ""
            #expect(reply.header("Location") == "/1.1/classes/_User/\(id)")
        }
    }

    @Test("POST /classes/_User is a sign-up, as the LeanCloud Python SDK sends it")
    func classesPath() async throws {
        try await TestServer.with { client in
            let reply = try await client.request(.leancloud, .post, "/classes/_User?fetchWhenSave=false", json: ["username": "bo", "password": "pw"])
            #expect(reply.status == 201)
            #expect(reply.json["sessionToken"]?.stringValue != nil)
        }
    }

    @Test("Parse and Bmob sign-ups answer objectId, createdAt and sessionToken only", arguments: [Endpoint.parse, .parseMounted, .bmob])
    func parseAndBmobShape(_ endpoint: Endpoint) async throws {
        try await TestServer.with { client in
            let reply = try await client.request(endpoint, .post, "/users", json: ["username": "cy", "password": "pw", "age": 3])
            #expect(reply.status == 201)
            #expect(reply.keys == ["createdAt", "objectId", "sessionToken"])
            #expect(WireFormat.matches(reply.json["createdAt"]?.stringValue, WireFormat.date(endpoint.dialect)))
            if endpoint.dialect == .parse { #expect(reply.json["sessionToken"]?.stringValue?.hasPrefix("r:") == true) }
        }
    }

    @Test("a taken username, email or phone number is refused with 202, 203 or the dialect's code", arguments: Endpoint.dialects)
    func uniqueness(_ endpoint: Endpoint) async throws {
        try await TestServer.with { client in
            _ = try await client.signUp(endpoint, "dup", extra: ["email": "d@example.com", "mobilePhoneNumber": "+8618600000001"])
            let cases: [([String: JSON], Int64)] = [
                (["username": "dup"], 202),
                (["username": "other1", "email": "d@example.com"], 203),
                (["username": "other2", "mobilePhoneNumber": "+8618600000001"], endpoint.dialect == .leancloud ? 214 : endpoint.dialect == .bmob ? 209 : 137),
            ]
            for (fields, code) in cases {
                var body = fields
                body["password"] = "pw"
                let reply = try await client.request(endpoint, .post, "/users", json: .object(body))
                #expect(reply.status == 400)
                #expect(reply.code == code, "\(fields): \(reply.bodyText)")
            }
            let count = try await client.request(endpoint, .get, "/classes/_User?count=1&limit=0", auth: .master)
            #expect(count.json["count"] == 1)
        }
    }

    @Test("a missing or empty username or password is refused with the dialect's code", arguments: Endpoint.dialects)
    func missingFields(_ endpoint: Endpoint) async throws {
        let (noName, noPassword): (Int64, Int64) = switch endpoint.dialect {
        case .leancloud: (217, 218)
        case .parse: (200, 201)
        case .bmob: (108, 108)
        }
        try await TestServer.with { client in
            let bodies: [(JSON, Int64)] = [
                (["password": "pw"], noName), (["username": "", "password": "pw"], noName), (["username": "  ", "password": "pw"], noName),
                (["username": "x"], noPassword), (["username": "x", "password": ""], noPassword), (["username": "x", "password": 5], noPassword),
            ]
            for (body, code) in bodies {
                let reply = try await client.request(endpoint, .post, "/users", json: body)
                #expect(reply.status == 400)
                #expect(reply.code == code, "\(body): \(reply.bodyText)")
            }
        }
    }

    @Test("malformed sign-up input is refused: bad JSON, an invalid email or phone number, server-kept fields ignored")
    func badInput() async throws {
        try await TestServer.with { client in
            let notJSON = try await client.request(.leancloud, .post, "/users", body: "{nope")
            #expect(notJSON.status == 400)
            #expect(notJSON.code == 107)
            let email = try await client.request(.leancloud, .post, "/users", json: ["username": "e", "password": "p", "email": "no-at"])
            #expect(email.code == 125)
            let phone = try await client.request(.leancloud, .post, "/users", json: ["username": "e", "password": "p", "mobilePhoneNumber": "call me"])
            #expect(phone.code == 127)
            let flags = try await client.request(
                .leancloud, .post, "/users", json: ["username": "f", "password": "p", "emailVerified": true, "sessionToken": "mine"]
            )
            #expect(flags.status == 201)
            #expect(flags.json["emailVerified"] == false)
            #expect(flags.json["sessionToken"] != "mine")
        }
    }

    @Test("the password is never stored in the user object: master queries, fetches and CQL do not show it")
    func passwordNeverReturned() async throws {
        try await TestServer.with { client in
            let user = try await client.signUp(.leancloud, "hidden", password: "very-secret")
            let fetched = try await client.request(.leancloud, .get, "/classes/_User/\(user.id)", auth: .master)
            let queried = try await client.request(.leancloud, .get, "/classes/_User", auth: .master)
            let cql = try await client.request(
                .leancloud, .get, "/cloudQuery?cql=" + URLQuery.encode("select * from _User"), auth: .master
            )
            for reply in [fetched, queried, cql] {
                #expect(reply.status == 200)
                #expect(!reply.bodyText.contains("very-secret"))
                #expect(!reply.bodyText.contains("password"))
                #expect(!reply.bodyText.contains("scrypt"))
            }
            let probe = try await client.request(
                .leancloud, .get, "/classes/_User?" + URLQuery.whereClause(["password": ["$exists": true]]), auth: .master
            )
            #expect(probe.json["results"]?.arrayValue?.isEmpty == true)
        }
    }
}
