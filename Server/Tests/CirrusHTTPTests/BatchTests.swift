import CirrusModel
import CirrusTesting
import Testing

@Suite("POST /batch in each dialect")
struct BatchTests {
    static func item(_ method: String, _ path: String, _ body: JSON? = nil, params: JSON? = nil) -> JSON {
        var members: [String: JSON] = ["method": .string(method), "path": .string(path)]
        if let body { members["body"] = body }
        if let params { members["params"] = params }
        return .object(members)
    }

    @Test("the reply holds one success or error per request, in order", arguments: Endpoint.all)
    func ordered(_ endpoint: Endpoint) async throws {
        try await TestServer.with { client in
            let existing = try await client.create(endpoint, "Person", ["age": 1])
            let prefix = endpoint.prefix
            let reply = try await client.request(endpoint, .post, "/batch", json: ["requests": [
                Self.item("POST", "\(prefix)/classes/Person", ["age": 40]),
                Self.item("PUT", "\(prefix)/classes/Person/\(existing)", ["age": 2]),
                Self.item("POST", "\(prefix)/classes/Person", ["1bad": 1]),
                Self.item("GET", "\(prefix)/classes/Person/\(existing)"),
                Self.item("DELETE", "\(prefix)/classes/Person/\(existing)"),
            ]])
            #expect(reply.status == 200)
            let items = try #require(reply.json.arrayValue)
            #expect(items.count == 5)
            #expect(items[0]["success"]?.objectValue?.keys.sorted() == ["createdAt", "objectId"])
            #expect(WireFormat.matches(items[0]["success"]?["objectId"]?.stringValue, WireFormat.objectId(endpoint.dialect)))
            #expect(WireFormat.matches(items[0]["success"]?["createdAt"]?.stringValue, WireFormat.date(endpoint.dialect)))
            let updateKeys = endpoint.dialect == .leancloud ? ["objectId", "updatedAt"] : ["updatedAt"]
            #expect(items[1]["success"]?.objectValue?.keys.sorted() == updateKeys)
            #expect(items[2]["error"]?["code"] == 105)
            #expect(items[3]["success"]?["age"] == 2)
            #expect(items[4]["success"] == (endpoint.isBmob ? ["msg": "ok"] : [:]))
            let count = try await client.request(.leancloud, .get, "/classes/Person?count=1&limit=0")
            #expect(count.json["count"] == 1)
        }
    }

    /// Recording Objects/Fetching-Objects/fetchAll-with-non-existed-Class/object-should-fail.
    @Test("GET items: a missing object is {success:null}, a missing class error 101")
    func getItems() async throws {
        try await TestServer.with { client in
            let id = try await client.create(.leancloud, "GameScore", ["score": 10000, "arr": ["arr1", "arr2"]])
            let reply = try await client.request(.leancloud, .post, "/batch", json: ["requests": [
                Self.item("GET", "/1.1/classes/GameScore/\(id)"),
                Self.item("GET", "/1.1/classes/GameScore/fakeId"),
                Self.item("GET", "/1.1/classes/FakeClass/\(id)"),
            ]])
            #expect(reply.status == 200)
            let items = try #require(reply.json.arrayValue)
            #expect(items.count == 3)
            #expect(items[0]["success"]?["score"] == 10000)
            #expect(items[0]["success"]?["objectId"] == .string(id))
            #expect(items[1] == ["success": nil])
            #expect(items[2] == ["error": ["code": 101, "error": "Class or object doesn't exists."]])
        }
    }

    @Test("GET items on Parse and Bmob report a missing object as error 101", arguments: [Endpoint.parse, .bmob])
    func getMissingElsewhere(_ endpoint: Endpoint) async throws {
        try await TestServer.with { client in
            _ = try await client.create(endpoint, "GameScore", ["score": 1])
            let reply = try await client.request(endpoint, .post, "/batch", json: ["requests": [Self.item("GET", "/1/classes/GameScore/fakeId")]])
            #expect(reply.json[0]?["error"]?["code"] == 101)
        }
    }

    /// Recordings AV-Status/should-not-cause-URI-too-long and Query-Constraints/containsAll-with-an-large-array.
    @Test("GET items take their query from params, with where as a JSON object or text")
    func getWithParams() async throws {
        try await TestServer.with { client in
            for score in 1...3 { _ = try await client.create(.leancloud, "GameScore", ["score": .int(Int64(score)), "arr": ["a", "b"]]) }
            let reply = try await client.request(.leancloud, .post, "/batch", json: ["requests": [
                Self.item("GET", "/1.1/classes/GameScore", params: ["where": ["score": ["$gte": 2]], "order": "-score", "keys": "score"]),
                Self.item("GET", "/1.1/classes/GameScore", params: ["where": #"{"arr":{"$all":["a","b"]}}"#, "limit": 1, "count": 1]),
                Self.item("GET", "/1.1/classes/GameScore?where=%7B%22score%22%3A1%7D"),
            ]])
            let items = try #require(reply.json.arrayValue)
            let first = try #require(items[0]["success"]?["results"]?.arrayValue)
            #expect(first.map { $0["score"] } == [3, 2])
            #expect(first[0].objectValue?.keys.sorted() == ["createdAt", "objectId", "score", "updatedAt"])
            #expect(items[1]["success"]?["count"] == 3)
            #expect(items[1]["success"]?["results"]?.arrayValue?.count == 1)
            #expect(items[2]["success"]?["results"]?.arrayValue?.map { $0["score"] } == [1])
        }
    }

    /// Recording Query-Constraints/containsAll-with-an-large-array-should-not-cause-URI-too-long: a GET item
    /// carries a `$all` of about 200 values in `params`, too long for a URL.
    @Test("GET items take long value lists in params", arguments: [200, 1500])
    func longLists(_ count: Int) async throws {
        try await TestServer.with { client in
            _ = try await client.create(.leancloud, "GameScore", ["arr": ["contains-all-test"], "score": 7])
            _ = try await client.create(.leancloud, "GameScore", ["arr": ["other"], "score": 8])
            let repeated = JSON.array(Array(repeating: "contains-all-test", count: count))
            let numbers = JSON.array((0..<count).map { .int(Int64($0 + 8)) })
            let ids = JSON.array((0..<count).map { .string("5d8308029c92350008" + String(100_000 + $0)) })
            let pointers = JSON.array((0..<count).map { ["__type": "Pointer", "className": "P", "objectId": .string("p\($0)")] })
            let reply = try await client.request(.leancloud, .post, "/batch", json: ["requests": [
                Self.item("GET", "/1.1/classes/GameScore", params: ["where": ["arr": ["$all": repeated]]]),
                Self.item("GET", "/1.1/classes/GameScore", params: ["where": ["score": ["$in": numbers]]]),
                Self.item("GET", "/1.1/classes/GameScore", params: ["where": ["score": ["$nin": numbers]]]),
                Self.item("GET", "/1.1/classes/GameScore", params: ["where": ["objectId": ["$in": ids]]]),
                Self.item("GET", "/1.1/classes/GameScore", params: ["where": ["owner": ["$in": pointers]]]),
                Self.item("GET", "/1.1/classes/GameScore", params: ["where": ["$or": .array((0..<count).map { ["score": .int(Int64($0 + 8))] })]]),
            ]])
            #expect(reply.status == 200)
            let items = try #require(reply.json.arrayValue)
            #expect(items[0]["success"]?["results"]?.arrayValue?.map { $0["score"] } == [7], "\(items[0])")
            #expect(items[1]["success"]?["results"]?.arrayValue?.map { $0["score"] } == [8], "\(items[1])")
            #expect(items[2]["success"]?["results"]?.arrayValue?.map { $0["score"] } == [7], "\(items[2])")
            #expect(items[3]["success"]?["results"] == [], "\(items[3])")
            #expect(items[4]["success"]?["results"] == [], "\(items[4])")
            #expect(items[5]["success"]?["results"]?.arrayValue?.map { $0["score"] } == [8], "\(items[5])")
        }
    }

    @Test("a transaction deletes a LeanCloud comma-separated id list")
    func transactionDeleteList() async throws {
        try await TestServer.with { client in
            let ids = [try await client.create(.leancloud, "Item", ["n": 1]), try await client.create(.leancloud, "Item", ["n": 2])]
            let reply = try await client.request(.leancloud, .post, "/batch", json: [
                "transaction": true, "requests": [Self.item("DELETE", "/1.1/classes/Item/\(ids.joined(separator: ","))")],
            ])
            #expect(reply.json == [["success": [:]]], "\(reply.bodyText)")
            #expect(try await client.request(.leancloud, .get, "/classes/Item?count=1&limit=0").json["count"] == 0)
        }
    }

    /// Recording Objects/Relational-Data/should-save-all-partially.
    @Test("a PUT to a missing id fails with code 1 next to the other items' successes")
    func partialFailure() async throws {
        try await TestServer.with { client in
            _ = try await client.create(.leancloud, "Person", ["age": 1])
            let reply = try await client.request(.leancloud, .post, "/batch", json: ["requests": [
                Self.item("PUT", "/1.1/classes/Person/fakeid", ["age": 30]),
                Self.item("POST", "/1.1/classes/Person", ["age": 40]),
            ]])
            #expect(reply.status == 200)
            let items = try #require(reply.json.arrayValue)
            #expect(items[0] == ["error": ["code": 1, "error": "Could not find object by id 'fakeid' for class 'Person'."]])
            #expect(items[1]["success"]?.objectValue?.keys.sorted() == ["createdAt", "objectId"])
        }
    }

    /// Recording Queries/destroyAll/should-be-deleted.
    @Test("a DELETE item with comma-separated ids deletes them all")
    func batchDeleteList() async throws {
        try await TestServer.with { client in
            var ids: [String] = []
            for number in 0..<5 { ids.append(try await client.create(.leancloud, "deletedAll", ["number": .int(Int64(number))])) }
            let reply = try await client.request(.leancloud, .post, "/batch", json: ["requests": [
                Self.item("DELETE", "/1.1/classes/deletedAll/\(ids.joined(separator: ","))", [:]),
            ]])
            #expect(reply.json == [["success": [:]]])
            let count = try await client.request(.leancloud, .get, "/classes/deletedAll?where=%7B%7D&limit=0&count=1")
            #expect(count.json == ["results": [], "count": 0])
        }
    }

    @Test("sub-request paths may use any dialect prefix")
    func pathPrefixes() async throws {
        try await TestServer.with { client in
            let reply = try await client.request(.parse, .post, "/batch", json: ["requests": [
                Self.item("POST", "/parse/classes/A", ["n": 1]), Self.item("POST", "/1/classes/A", ["n": 2]), Self.item("POST", "/classes/A", ["n": 3]),
            ]])
            let items = try #require(reply.json.arrayValue)
            #expect(items[0]["success"] != nil)
            #expect(items[1]["success"] != nil)
            #expect(items[2]["error"] != nil)
        }
    }

    @Test("Bmob accepts at most 50 requests per batch (code 114) and writes none of a larger one")
    func bmobLimit() async throws {
        try await TestServer.with { client in
            let fifty = (0..<50).map { Self.item("POST", "/1/classes/Item", ["n": .int(Int64($0))]) }
            let accepted = try await client.request(.bmob, .post, "/batch", json: ["requests": .array(fifty)])
            #expect(accepted.status == 200)
            #expect(accepted.json.arrayValue?.count == 50)
            let refused = try await client.request(.bmob, .post, "/batch", json: ["requests": .array(fifty + [fifty[0]])])
            #expect(refused.status == 400)
            #expect(refused.code == 114)
            #expect(try await client.request(.leancloud, .get, "/classes/Item?count=1&limit=0").json["count"] == 50)
            let leancloud = try await client.request(.leancloud, .post, "/batch", json: ["requests": .array((0..<60).map { Self.item("POST", "/1.1/classes/Item", ["n": .int(Int64($0))]) })])
            #expect(leancloud.json.arrayValue?.count == 60)
        }
    }

    @Test("with transaction true a failing item leaves no trace of the others", arguments: Endpoint.dialects)
    func transactionRollback(_ endpoint: Endpoint) async throws {
        try await TestServer.with { client in
            let prefix = endpoint.prefix
            let existing = try await client.create(endpoint, "Account", ["balance": 100])
            let doomed = try await client.create(endpoint, "Account", ["balance": 5])
            let reply = try await client.request(endpoint, .post, "/batch", json: [
                "transaction": true,
                "requests": [
                    Self.item("POST", "\(prefix)/classes/Account", ["balance": 1]),
                    Self.item("PUT", "\(prefix)/classes/Account/\(existing)", ["balance": ["__op": "Increment", "amount": -50]]),
                    Self.item("DELETE", "\(prefix)/classes/Account/\(doomed)"),
                    Self.item("PUT", "\(prefix)/classes/Account/missing0001", ["balance": 1]),
                ],
            ])
            #expect(reply.status >= 400)
            #expect(reply.code != nil)
            #expect(reply.json["error"]?.stringValue?.contains("3") == true)
            let all = try await client.request(.leancloud, .get, "/classes/Account?order=createdAt")
            #expect(all.json["results"]?.arrayValue?.map { $0["balance"] } == [100, 5])
        }
    }

    @Test("with transaction true a validation failure of any item writes nothing")
    func transactionValidation() async throws {
        try await TestServer.with { client in
            let reply = try await client.request(.leancloud, .post, "/batch", json: [
                "transaction": true,
                "requests": [Self.item("POST", "/1.1/classes/Account", ["balance": 1]), Self.item("POST", "/1.1/classes/Account", ["bad key": 1])],
            ])
            #expect(reply.status == 400)
            #expect(reply.code == 105)
            #expect(try await client.request(.leancloud, .get, "/classes/Account?count=1&limit=0").json["count"] == 0)
        }
    }

    @Test("with transaction true every item succeeds together", arguments: Endpoint.dialects)
    func transactionCommit(_ endpoint: Endpoint) async throws {
        try await TestServer.with { client in
            let prefix = endpoint.prefix
            let existing = try await client.create(endpoint, "Account", ["balance": 100])
            let reply = try await client.request(endpoint, .post, "/batch", json: [
                "transaction": true,
                "requests": [
                    Self.item("POST", "\(prefix)/classes/Account", ["balance": 1]),
                    Self.item("PUT", "\(prefix)/classes/Account/\(existing)", ["balance": ["__op": "Increment", "amount": -50]]),
                ],
            ])
            #expect(reply.status == 200, "\(reply.bodyText)")
            let items = try #require(reply.json.arrayValue)
            #expect(items.count == 2)
            #expect(WireFormat.matches(items[0]["success"]?["objectId"]?.stringValue, WireFormat.objectId(endpoint.dialect)))
            #expect(WireFormat.matches(items[1]["success"]?["updatedAt"]?.stringValue, WireFormat.date(endpoint.dialect)))
            let all = try await client.request(.leancloud, .get, "/classes/Account?order=createdAt")
            #expect(all.json["results"]?.arrayValue?.map { $0["balance"] } == [50, 1])
        }
    }

    /// A batch body that is not a batch, and the error code each dialect gives it.
    struct Malformed: Sendable, CustomTestStringConvertible {
        let name: String
        let body: String
        let codes: Codes
        var testDescription: String { name }
    }

    static let malformed: [Malformed] = [
        Malformed(name: "malformed JSON", body: "{\"requests\":", codes: .invalidJSON),
        Malformed(name: "an array body", body: "[]", codes: .invalidJSON),
        Malformed(name: "no requests", body: "{}", codes: .invalidParameter),
        Malformed(name: "requests that are not an array", body: #"{"requests":{"method":"GET"}}"#, codes: .invalidParameter),
    ]

    @Test("a malformed batch body is refused", arguments: Endpoint.dialects, malformed)
    func malformedBody(_ endpoint: Endpoint, _ body: Malformed) async throws {
        try await TestServer.with { client in
            let reply = try await client.request(endpoint, .post, "/batch", body: body.body)
            #expect(reply.status == 400)
            #expect(reply.code == body.codes.code(endpoint.dialect))
        }
    }

    @Test("malformed items fail alone")
    func malformedItems() async throws {
        try await TestServer.with { client in
            let reply = try await client.request(.leancloud, .post, "/batch", json: ["requests": [
                ["path": "/1.1/classes/A"],
                ["method": "POST"],
                ["method": "PATCH", "path": "/1.1/classes/A"],
                ["method": "POST", "path": "/elsewhere/classes/A", "body": ["n": 1]],
                ["method": "POST", "path": "/1.1/batch", "body": ["requests": []]],
                ["method": "GET", "path": "/1.1/nothing/here"],
                "not an object",
                ["method": "post", "path": "/1.1/classes/A", "body": ["n": 1]],
            ]])
            #expect(reply.status == 200)
            let items = try #require(reply.json.arrayValue)
            #expect(items.count == 8)
            for item in items.prefix(7) { #expect(item["error"]?["code"] != nil, "\(item)") }
            #expect(items[5]["error"]?["code"] == 1)
            #expect(items[7]["success"]?["objectId"] != nil)
        }
    }
}
