import CirrusModel
import CirrusServer
import CirrusServices
import CirrusTesting
import Testing

/// Class permissions set through the schema API, per operation × principal, and column flags.
@Suite("Class permissions")
struct ClassPermissionTests {
    /// Whether each operation succeeds for a principal under: get for logged-in users, find for role `Team`,
    /// create for the owner and role `Team`, update for nobody, delete for everyone, add_fields for the owner.
    static let expected: [String: Set<Principal>] = [
        "get": [.master, .owner, .roleMember, .otherUser],
        "find": [.master, .roleMember],
        "create": [.master, .owner, .roleMember],
        "update": [.master],
        "delete": [.master, .owner, .roleMember, .otherUser, .anonymous],
        "add_fields": [.master, .owner],
    ]

    @Test("each class permission grants its operation exactly to everyone, logged-in users, listed users or roles", arguments: Endpoint.dialects)
    func matrix(_ endpoint: Endpoint) async throws {
        try await TestServer.with { client in
            let fixture = try await PermissionFixture.make(client, endpoint)
            let permissions: JSON = [
                "get": ["onlySignInUsers": true], "find": ["roles": ["Team"], "users": []], "create": ["users": [.string(fixture.owner.id)], "roles": ["Team"]],
                "update": ["roles": [], "users": []], "delete": ["*": true], "add_fields": ["users": [.string(fixture.owner.id)]],
            ]
            let defined = try await client.request(endpoint, .post, "/schemas/Locked", json: [
                "fields": ["n": ["type": "Number"]], "classLevelPermissions": permissions,
            ], auth: .master)
            #expect(defined.status == 201, "\(defined.bodyText)")
            for principal in Principal.allCases {
                let auth = fixture.auth(principal)
                let seed = try await client.request(endpoint, .post, "/classes/Locked", json: ["n": 1], auth: .master)
                let id = try #require(seed.json["objectId"]?.stringValue)
                var outcome: [String: Bool] = [:]
                outcome["get"] = try await client.request(endpoint, .get, "/classes/Locked/\(id)", auth: auth).json["n"] == 1
                outcome["find"] = try await client.request(endpoint, .get, "/classes/Locked", auth: auth).status == 200
                outcome["create"] = try await client.request(endpoint, .post, "/classes/Locked", json: ["n": 2], auth: auth).status == 201
                outcome["update"] = try await client.request(endpoint, .put, "/classes/Locked/\(id)", json: ["n": 3], auth: auth).status == 200
                let widened = try await client.request(endpoint, .post, "/classes/Locked", json: ["n": 4, "extra\(principal.rawValue)": 1], auth: auth)
                outcome["add_fields"] = widened.status == 201
                outcome["delete"] = try await client.request(endpoint, .delete, "/classes/Locked/\(id)", auth: auth).status == 200
                for (operation, allowed) in Self.expected {
                    #expect(outcome[operation] == allowed.contains(principal), "\(operation) as \(principal) in \(endpoint.dialect)")
                }
            }
            let denied = try await client.request(endpoint, .get, "/classes/Locked", auth: .appKey)
            switch endpoint.dialect {
            case .leancloud: #expect(denied.status == 403 && denied.code == 403)
            case .parse: #expect(denied.status == 403 && denied.code == 119)
            case .bmob: #expect(denied.status == 400 && denied.code == 122)
            }
        }
    }

    @Test("an include into a class whose get permission refuses the caller leaves the pointer unexpanded")
    func includeNeedsGet() async throws {
        try await TestServer.with { client in
            let user = try await client.signUp(.leancloud, "includer")
            _ = try await client.request(.leancloud, .post, "/schemas/Vault", json: ["classLevelPermissions": ["get": ["onlySignInUsers": true]]], auth: .master)
            let vault = try await client.request(.leancloud, .post, "/classes/Vault", json: ["gold": 7], auth: .master).json["objectId"]?.stringValue ?? ""
            let map = try await client.create(.leancloud, "Map", ["vault": ["__type": "Pointer", "className": "Vault", "objectId": .string(vault)]])
            let anonymous = try await client.request(.leancloud, .get, "/classes/Map/\(map)?include=vault")
            #expect(anonymous.json["vault"] == ["__type": "Pointer", "className": "Vault", "objectId": .string(vault)])
            let signedIn = try await client.request(.leancloud, .get, "/classes/Map/\(map)?include=vault", auth: .session(user.token))
            #expect(signedIn.json["vault"]?["gold"] == 7)
        }
    }

    @Test("a hidden field is never returned to clients, including in includes, and cannot be queried or sorted on")
    func hiddenField() async throws {
        try await TestServer.with { client in
            _ = try await client.request(.leancloud, .post, "/schemas/Secret", json: [
                "fields": ["code": ["type": "String", "hidden": true], "label": ["type": "String"]],
            ], auth: .master)
            let id = try await client.create(.leancloud, "Secret", ["code": "xyz", "label": "l"])
            let holder = try await client.create(.leancloud, "Box", ["secret": ["__type": "Pointer", "className": "Secret", "objectId": .string(id)]])
            #expect(try await client.fetch(.leancloud, "Secret", id).json["code"] == nil)
            #expect(try await client.fetch(.leancloud, "Secret", id).json["label"] == "l")
            #expect(try await client.request(.leancloud, .get, "/classes/Secret/\(id)", auth: .master).json["code"] == "xyz")
            #expect(try await client.request(.leancloud, .get, "/classes/Secret").json["results"]?[0]?["code"] == nil)
            #expect(try await client.request(.leancloud, .get, "/classes/Box/\(holder)?include=secret").json["secret"]?["code"] == nil)
            for query in [URLQuery.whereClause(["code": "xyz"]), "order=code",
                          URLQuery.whereClause(["secret": ["$inQuery": ["className": "Secret", "where": ["code": ["$regex": "^x"]]]]])] {
                let className = query.contains("inQuery") ? "Box" : "Secret"
                let reply = try await client.request(.leancloud, .get, "/classes/\(className)?" + query)
                #expect(reply.status == 403, "\(query): \(reply.bodyText)")
            }
            #expect(try await client.request(.leancloud, .get, "/classes/Secret?sum=code").status == 403)
            #expect(try await client.request(.leancloud, .get, "/classes/Secret?" + URLQuery.whereClause(["code": "xyz"]), auth: .master).json["results"]?.arrayValue?.count == 1)
        }
    }

    @Test("a read-only field is refused to clients on create and update (117) and writable with the master key")
    func readOnlyField() async throws {
        try await TestServer.with { client in
            _ = try await client.request(.leancloud, .post, "/schemas/Score", json: [
                "fields": ["points": ["type": "Number", "read_only": true]],
            ], auth: .master)
            let create = try await client.request(.leancloud, .post, "/classes/Score", json: ["points": 10])
            #expect(create.code == 117)
            let id = try await client.create(.leancloud, "Score", ["name": "a"])
            #expect(try await client.request(.leancloud, .put, "/classes/Score/\(id)", json: ["points": ["__op": "Increment"]]).code == 117)
            #expect(try await client.request(.leancloud, .put, "/classes/Score/\(id)", json: ["points": 5], auth: .master).status == 200)
            #expect(try await client.fetch(.leancloud, "Score", id).json["points"] == 5)
            #expect(try await client.request(.parse, .put, "/classes/Score/\(id)", json: ["points": 6]).code == 136)
        }
    }

    @Test("a class's default ACL applies to objects created without one")
    func defaultACL() async throws {
        try await TestServer.with { client in
            let user = try await client.signUp(.leancloud, "acl-default")
            _ = try await client.request(.leancloud, .post, "/schemas/Private", json: ["defaultACL": ["*": ["read": true]]], auth: .master)
            let id = try await client.create(.leancloud, "Private", ["n": 1])
            #expect(try await client.request(.leancloud, .get, "/classes/Private/\(id)", auth: .master).json["ACL"] == nil)
            #expect(try await client.request(.leancloud, .get, "/classes/Private/\(id)?returnACL=true", auth: .master).json["ACL"] == ["*": ["read": true]])
            #expect(try await client.request(.leancloud, .put, "/classes/Private/\(id)", json: ["n": 2], auth: .session(user.token)).status == 403)
            let open = try await client.create(.leancloud, "Private", ["n": 3, "ACL": ["*": ["read": true, "write": true]]])
            #expect(try await client.request(.leancloud, .put, "/classes/Private/\(open)", json: ["n": 4]).status == 200)
        }
    }

    @Test("closing _User create closes sign-ups and third-party sign-ups; add_fields and read-only columns apply to sign-up fields")
    func signUpPermissions() async throws {
        try await TestServer.with(configure: { $0.authData.trustedPlatforms = ["github"] }) { client in
            _ = try await client.signUp(.leancloud, "first")
            _ = try await client.request(.leancloud, .put, "/schemas/_User", json: [
                "fields": ["level": ["type": "Number", "read_only": true]], "classLevelPermissions": ["add_fields": ["roles": [], "users": []]],
            ], auth: .master)
            #expect(try await client.request(.leancloud, .post, "/users", json: ["username": "a", "password": "p", "level": 9]).code == 117)
            #expect(try await client.request(.leancloud, .post, "/users", json: ["username": "b", "password": "p", "nickname": "n"]).code == 403)
            #expect(try await client.request(.leancloud, .post, "/users", json: ["username": "c", "password": "p", "email": "c@example.com"]).status == 201)
            _ = try await client.request(.leancloud, .put, "/schemas/_User", json: ["classLevelPermissions": ["create": ["roles": [], "users": []]]], auth: .master)
            #expect(try await client.request(.leancloud, .post, "/users", json: ["username": "d", "password": "p"]).code == 403)
            #expect(try await client.request(.leancloud, .post, "/users", json: ["authData": ["github": ["uid": "9"]]]).code == 403)
            #expect(try await client.logIn(.leancloud, "first", "secret-1").status == 200)
        }
    }

    @Test("_User find stays closed to clients by default but opens when the permission is set")
    func userFindPermission() async throws {
        try await TestServer.with { client in
            let user = try await client.signUp(.leancloud, "finder")
            #expect(try await client.request(.leancloud, .get, "/classes/_User", auth: .session(user.token)).status == 403)
            let schema = try await client.request(.leancloud, .get, "/schemas/_User?full=1", auth: .master)
            #expect(schema.json["classLevelPermissions"]?["find"] == ["roles": [], "users": []])
            _ = try await client.request(.leancloud, .put, "/schemas/_User", json: ["classLevelPermissions": ["find": ["onlySignInUsers": true]]], auth: .master)
            #expect(try await client.request(.leancloud, .get, "/classes/_User", auth: .session(user.token)).json["results"]?.arrayValue?.count == 1)
            #expect(try await client.request(.leancloud, .get, "/classes/_User").status == 403)
        }
    }
}
