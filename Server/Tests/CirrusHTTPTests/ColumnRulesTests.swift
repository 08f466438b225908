import CirrusModel
import CirrusTesting
import Testing

/// Column defaults and required columns (LeanCloud's console flags, Parse's `defaultValue` and `required`), set
/// through the schema API and applied to every write, in every dialect.
@Suite("Column defaults and required columns")
struct ColumnRulesTests {
    /// Each dialect's code for a missing required value.
    static let missingCodes: [(Endpoint, Int64)] = [(.leancloud, 113), (.parse, 142), (.bmob, 107)]

    static func defineTask(_ client: TestClient) async throws {
        let defined = try await client.request(.leancloud, .post, "/schemas/Task", json: [
            "fields": [
                "title": ["type": "String", "required": true],
                "priority": ["type": "Number", "defaultValue": 3],
                "tags": ["type": "Array", "default": ["new"]],
            ],
        ], auth: .master)
        #expect(defined.status == 201, "\(defined.bodyText)")
    }

    @Test("a create gets the defaults of the fields it leaves out and keeps those it sends", arguments: Endpoint.dialects)
    func defaults(_ endpoint: Endpoint) async throws {
        try await TestServer.with { client in
            try await Self.defineTask(client)
            let plain = try await client.create(endpoint, "Task", ["title": "a"])
            let stored = try await client.fetch(endpoint, "Task", plain)
            #expect(stored.json["priority"] == 3 && stored.json["tags"] == ["new"], "\(stored.bodyText)")
            let given = try await client.create(endpoint, "Task", ["title": "b", "priority": 9, "tags": []])
            let kept = try await client.fetch(endpoint, "Task", given)
            #expect(kept.json["priority"] == 9 && kept.json["tags"] == [], "\(kept.bodyText)")
            // A batch's creates and a CQL insert get them too.
            let batch = try await client.request(endpoint, .post, "/batch", json: [
                "requests": [["method": "POST", "path": .string(endpoint.prefix + "/classes/Task"), "body": ["title": "c"]]],
            ])
            let batchId = try #require(batch.json[0]?["success"]?["objectId"]?.stringValue, "\(batch.bodyText)")
            #expect(try await client.fetch(endpoint, "Task", batchId).json["priority"] == 3)
            if endpoint.dialect == .leancloud {
                let insert = try await client.request(endpoint, .get, "/cloudQuery?cql=" + URLQuery.encode("insert into Task(title) values('d')"))
                let id = try #require(insert.json["results"]?[0]?["objectId"]?.stringValue, "\(insert.bodyText)")
                #expect(try await client.fetch(endpoint, "Task", id).json["tags"] == ["new"])
            }
        }
    }

    @Test("a create without a required value, or an update removing it, is refused with the dialect's code", arguments: missingCodes)
    func required(_ endpoint: Endpoint, _ code: Int64) async throws {
        try await TestServer.with { client in
            try await Self.defineTask(client)
            for body: JSON in [["priority": 1], ["title": .null], ["title": ["__op": "Delete"]]] {
                for auth in [TestClient.Auth.appKey, .master] {
                    let refused = try await client.request(endpoint, .post, "/classes/Task", json: body, auth: auth)
                    #expect(refused.code == code && refused.bodyText.contains("title"), "\(body): \(refused.bodyText)")
                }
            }
            let id = try await client.create(endpoint, "Task", ["title": "kept"])
            for body: JSON in [["title": .null], ["title": ["__op": "Delete"]]] {
                let refused = try await client.request(endpoint, .put, "/classes/Task/\(id)", json: body)
                #expect(refused.code == code, "\(body): \(refused.bodyText)")
            }
            #expect(try await client.request(endpoint, .put, "/classes/Task/\(id)", json: ["priority": 5]).status == 200)
            #expect(try await client.request(endpoint, .put, "/classes/Task/\(id)", json: ["title": "changed"]).status == 200)
            let stored = try await client.fetch(endpoint, "Task", id)
            #expect(stored.json["title"] == "changed" && stored.json["priority"] == 5)
            let all = try await client.request(endpoint, .get, "/classes/Task", auth: .master)
            #expect(all.json["results"]?.arrayValue?.count == 1, "\(all.bodyText)")
        }
    }

    @Test("the schema shows the flags, refuses a default of another type or an operation, and a flag can be taken back")
    func schema() async throws {
        try await TestServer.with { client in
            try await Self.defineTask(client)
            let shown = try await client.request(.leancloud, .get, "/schemas/Task", auth: .master)
            #expect(shown.json["title"]?["required"] == true && shown.json["priority"]?["defaultValue"] == 3, "\(shown.bodyText)")
            let wrongType = try await client.request(.leancloud, .put, "/schemas/Task", json: ["fields": ["priority": ["defaultValue": "high"]]], auth: .master)
            #expect(wrongType.status == 400 && wrongType.bodyText.contains("priority"), "\(wrongType.bodyText)")
            let operation = try await client.request(.leancloud, .put, "/schemas/Task", json: [
                "fields": ["priority": ["defaultValue": ["__op": "Increment", "amount": 1]]],
            ], auth: .master)
            #expect(operation.status == 400, "\(operation.bodyText)")
            let newField = try await client.request(.leancloud, .put, "/schemas/Task", json: ["fields": ["due": ["type": "Date", "defaultValue": 5]]], auth: .master)
            #expect(newField.status == 400, "\(newField.bodyText)")
            // A change names the flags it changes; the others stay.
            let hidden = try await client.request(.leancloud, .put, "/schemas/Task", json: ["fields": ["priority": ["hidden": true]]], auth: .master)
            #expect(hidden.status == 200, "\(hidden.bodyText)")
            let kept = try await client.request(.leancloud, .get, "/schemas/Task", auth: .master)
            #expect(kept.json["priority"]?["hidden"] == true && kept.json["priority"]?["defaultValue"] == 3, "\(kept.bodyText)")
            #expect(kept.json["title"]?["required"] == true)
            let unset = try await client.request(.leancloud, .put, "/schemas/Task", json: [
                "fields": ["title": ["required": false], "priority": ["defaultValue": .null]],
            ], auth: .master)
            #expect(unset.status == 200, "\(unset.bodyText)")
            let created = try await client.request(.leancloud, .post, "/classes/Task", json: ["tags": []])
            #expect(created.status == 201, "\(created.bodyText)")
            let plain = try await client.fetch(.leancloud, "Task", created.json["objectId"]?.stringValue ?? "", query: "")
            #expect(plain.json["priority"] == nil && plain.json["title"] == nil, "\(plain.bodyText)")
        }
    }
}
