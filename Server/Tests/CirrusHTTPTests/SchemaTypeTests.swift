import CirrusModel
import CirrusTesting
import Testing

@Suite("Field types recorded by sub-path writes")
struct SchemaTypeTests {
    @Test("a numeric key below a new field creates and records an object, so a later array write is refused (111)")
    func numericKeyBelowNewField() async throws {
        try await TestServer.with { client in
            let created = try await client.send(.leancloud, .post, "/1.1/classes/Season", json: ["name": "s"])
            let id = try #require(created.json["objectId"]?.stringValue)
            let updated = try await client.send(.leancloud, .put, "/1.1/classes/Season/\(id)", json: ["scores.2019": 5])
            #expect(updated.status == 200)
            let fetched = try await client.send(.leancloud, .get, "/1.1/classes/Season/\(id)")
            #expect(fetched.json["scores"] == ["2019": 5])
            let refused = try await client.send(.leancloud, .put, "/1.1/classes/Season/\(id)", json: ["scores": [1, 2]])
            #expect(refused.status == 400)
            #expect(refused.code == 111)
        }
    }
}
