import CirrusModel
import CirrusStorage
import CirrusTesting
import Testing

/// `/schemas`: reading, creating, changing and dropping classes, with the master key only.
@Suite("Schema API")
struct SchemaAPITests {
    @Test("LeanCloud lists classes as a map of their fields with types, targets and built-in fields")
    func leanCloudShape() async throws {
        try await TestServer.with { client in
            _ = try await client.create(.leancloud, "Book", ["title": "t", "author": ["__type": "Pointer", "className": "_User", "objectId": "u1"], "pages": 3])
            let all = try await client.request(.leancloud, .get, "/schemas", auth: .master)
            #expect(all.status == 200)
            #expect(all.json["Book"]?["title"] == ["type": "String"])
            #expect(all.json["Book"]?["author"] == ["type": "Pointer", "className": "_User"])
            #expect(all.json["Book"]?["objectId"] == ["type": "String"])
            #expect(all.json["Book"]?["createdAt"] == ["type": "Date"])
            let one = try await client.request(.leancloud, .get, "/schemas/Book", auth: .master)
            #expect(one.json["pages"] == ["type": "Number"])
        }
    }

    @Test("Parse and Bmob list classes with className, fields (targetClass), class permissions and indexes", arguments: [Endpoint.parse, .bmob])
    func parseShape(_ endpoint: Endpoint) async throws {
        try await TestServer.with { client in
            _ = try await client.create(endpoint, "Book", ["likes": ["__op": "AddRelation", "objects": [["__type": "Pointer", "className": "_User", "objectId": "u1"]]]])
            let all = try await client.request(endpoint, .get, "/schemas", auth: .master)
            let book = all.json["results"]?.arrayValue?.first { $0["className"] == "Book" }
            #expect(book?["fields"]?["likes"] == ["type": "Relation", "targetClass": "_User"])
            #expect(book?["classLevelPermissions"]?["find"] == ["*": true])
            #expect(book?["indexes"]?["_id_"] == ["_id": 1])
        }
    }

    @Test("a class is created with fields, flags, permissions, a default ACL and indexes, then changed and dropped")
    func lifecycle() async throws {
        try await TestServer.with { client in
            let created = try await client.request(.parse, .post, "/schemas/Game", json: [
                "className": "Game", "fields": ["name": ["type": "String"], "owner": ["type": "Pointer", "targetClass": "_User"]],
                "classLevelPermissions": ["find": ["requiresAuthentication": true], "create": ["role:Admins": true]],
                "indexes": ["name_1": ["name": 1]],
            ], auth: .master)
            #expect(created.status == 201)
            #expect(created.json["fields"]?["owner"] == ["type": "Pointer", "targetClass": "_User"])
            #expect(created.json["classLevelPermissions"]?["find"] == ["requiresAuthentication": true])
            #expect(created.json["classLevelPermissions"]?["create"] == ["role:Admins": true])
            #expect(created.json["indexes"]?["name_1"] == ["name": 1])
            #expect(try await client.request(.parse, .post, "/schemas/Game", json: [:], auth: .master).code == 103)
            let changed = try await client.request(.parse, .put, "/schemas/Game", json: [
                "fields": ["score": ["type": "Number"], "name": ["__op": "Delete"]], "indexes": ["name_1": ["__op": "Delete"], "score_1": ["score": -1]],
            ], auth: .master)
            #expect(changed.status == 200, "\(changed.bodyText)")
            #expect(changed.json["fields"]?["name"] == nil)
            #expect(changed.json["fields"]?["score"] == ["type": "Number"])
            #expect(changed.json["indexes"]?["score_1"] == ["score": 1])
            #expect(changed.json["indexes"]?["name_1"] == nil)
            _ = try await client.request(.parse, .post, "/classes/Game", json: ["score": 1], auth: .master)
            #expect(try await client.request(.parse, .delete, "/schemas/Game", auth: .master).code == 255)
            let all = try await client.request(.parse, .get, "/classes/Game", auth: .master).json["results"]?.arrayValue ?? []
            for object in all { _ = try await client.request(.parse, .delete, "/classes/Game/\(object["objectId"]?.stringValue ?? "")", auth: .master) }
            #expect(try await client.request(.parse, .delete, "/schemas/Game", auth: .master).status == 200)
            #expect(try await client.request(.parse, .get, "/schemas/Game", auth: .master).status == 404)
        }
    }

    @Test("dropping a field removes its values from every object")
    func dropField() async throws {
        try await TestServer.with { client in
            let id = try await client.create(.leancloud, "Note", ["keep": 1, "drop": "x"])
            _ = try await client.request(.leancloud, .put, "/schemas/Note", json: ["fields": ["drop": ["__op": "Delete"]]], auth: .master)
            #expect(try await client.fetch(.leancloud, "Note", id).keys == ["createdAt", "keep", "objectId", "updatedAt"])
            #expect(try await client.request(.leancloud, .put, "/classes/Note/\(id)", json: ["drop": 5]).status == 200)
        }
    }

    @Test("the schema API needs the master key and refuses bad input with clear errors", arguments: Endpoint.dialects)
    func badInput(_ endpoint: Endpoint) async throws {
        try await TestServer.with { client in
            let listed = try await client.request(endpoint, .get, "/schemas")
            if endpoint.dialect == .bmob {
                // Bmob's SDKs read table structures with the app key: the findable classes, their readable fields only.
                #expect(listed.status == 200 && listed.json["results"]?.arrayValue?.allSatisfy { $0["classLevelPermissions"] == nil } == true)
            } else {
                #expect(listed.status >= 400)
            }
            #expect(try await client.request(endpoint, .post, "/schemas/X", json: [:]).status >= 400)
            #expect(try await client.request(endpoint, .put, "/schemas/X", json: [:]).status >= 400)
            _ = try await client.create(endpoint, "Item", ["n": 1])
            _ = try await client.signUp(endpoint, "schema-user")
            let cases: [JSON] = [
                ["fields": ["n": ["type": "String"]]], ["fields": ["x": ["type": "Nope"]]], ["fields": ["p": ["type": "Pointer"]]],
                ["fields": ["objectId": ["type": "String"]]], ["fields": "no"], ["classLevelPermissions": ["fly": ["*": true]]],
                ["classLevelPermissions": ["find": ["*": "yes"]]], ["indexes": ["i": ["a": 1, "b": 1]]], ["indexes": ["i": ["__op": "Delete"]]],
                ["fields": ["gone": ["__op": "Delete"]]], ["defaultACL": ["*": ["read": "yes"]]], ["indexes": ["missing_1": ["missing": 1]]],
                ["indexes": ["deep_1": ["missing.inner": 1]]],
            ]
            for body in cases {
                let reply = try await client.request(endpoint, .put, "/schemas/Item", json: body, auth: .master)
                #expect(reply.status == 400, "\(body): \(reply.bodyText)")
            }
            #expect(try await client.request(endpoint, .put, "/schemas/Item", body: "{", auth: .master).status == 400)
            // An index on a field the same change adds, or on a built-in one, is taken; none of the refused ones was made.
            let both = try await client.request(endpoint, .put, "/schemas/Item", json: ["fields": ["tag": ["type": "String"]], "indexes": ["tag_1": ["tag": 1], "c_1": ["createdAt": -1]]], auth: .master)
            #expect(both.status == 200, "\(both.bodyText)")
            let indexes = try await client.store.loadSchema(of: "Item")?.options.indexes ?? [:]
            #expect(indexes["tag_1"] != nil && indexes["missing_1"] == nil && indexes["deep_1"] == nil, "\(indexes)")
            #expect(try await client.request(endpoint, .get, "/schemas/Missing", auth: .master).status >= 400)
            #expect(try await client.request(endpoint, .delete, "/schemas/_User", auth: .master).status >= 400)
            #expect(try await client.request(endpoint, .put, "/schemas/_User", json: ["fields": ["username": ["__op": "Delete"]]], auth: .master).status == 400)
        }
    }
}
