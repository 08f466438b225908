import CirrusModel
import CirrusTesting
import Testing

@Suite("Objects over the LeanCloud dialect")
struct ObjectsSmokeTests {
    @Test("an object created through /1.1/classes can be fetched back with every field")
    func createAndFetch() async throws {
        try await TestServer.with { client in
            let created = try await client.send(.leancloud, .post, "/1.1/classes/GameScore", json: ["score": 1337, "name": "Sean"])
            #expect(created.status == 201)
            let id = try #require(created.json["objectId"]?.stringValue)
            let fetched = try await client.send(.leancloud, .get, "/1.1/classes/GameScore/\(id)")
            #expect(fetched.status == 200)
            #expect(fetched.json["score"] == 1337)
            #expect(fetched.json["name"] == "Sean")
        }
    }
}
