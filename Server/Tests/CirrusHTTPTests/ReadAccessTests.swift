import CirrusModel
import CirrusTesting
import Testing

/// Read permission: until users exist, a caller without the master key reads as the public `*`, so objects
/// whose ACL denies public read stay hidden from its find, count, get and statistics; the master key sees them.
@Suite("Read access")
struct ReadAccessTests {
    /// A public object and a hidden one (`ACL: {}`) of class `Note`; returns their ids.
    private func insertNotes(_ client: TestClient, _ endpoint: Endpoint) async throws -> (open: String, hidden: String) {
        let open = try await client.create(endpoint, "Note", ["n": 1])
        let hidden = try await client.create(endpoint, "Note", ["n": 2, "ACL": [:]])
        return (open, hidden)
    }

    @Test("find and count without the master key leave out an object whose ACL denies public read", arguments: Endpoint.dialects)
    func findAndCount(_ endpoint: Endpoint) async throws {
        try await TestServer.with { client in
            let (open, hidden) = try await insertNotes(client, endpoint)
            let found = try await client.request(endpoint, .get, "/classes/Note?count=1")
            #expect(found.status == 200)
            #expect(found.json["results"]?.arrayValue?.compactMap { $0["objectId"]?.stringValue } == [open])
            #expect(found.json["count"] == 1)
            let filtered = try await client.request(endpoint, .get, "/classes/Note?count=1&limit=0&" + URLQuery.whereClause(["n": 2]))
            #expect(filtered.json["count"] == 0)
            let master = try await client.request(endpoint, .get, "/classes/Note?count=1", auth: .master)
            #expect(Set(master.json["results"]?.arrayValue?.compactMap { $0["objectId"]?.stringValue } ?? []) == [open, hidden])
            #expect(master.json["count"] == 2)
        }
    }

    @Test("get by id without the master key answers as for a missing object; the master key gets it", arguments: Endpoint.dialects)
    func getById(_ endpoint: Endpoint) async throws {
        try await TestServer.with { client in
            let (open, hidden) = try await insertNotes(client, endpoint)
            let missing = try await client.fetch(endpoint, "Note", "ffffffffffffffffffffffff")
            let denied = try await client.fetch(endpoint, "Note", hidden)
            #expect(denied.status == missing.status)
            #expect(denied.code == missing.code)
            #expect(denied.json["objectId"] == nil)
            #expect(try await client.fetch(endpoint, "Note", open).json["n"] == 1)
            let master = try await client.request(endpoint, .get, "/classes/Note/\(hidden)", auth: .master)
            #expect(master.status == 200)
            #expect(master.json["objectId"]?.stringValue == hidden)
        }
    }

    @Test("a public ACL with read and an absent ACL are both readable without the master key")
    func publicRead() async throws {
        try await TestServer.with { client in
            let readable = try await client.create(.leancloud, "Note", ["n": 3, "ACL": ["*": ["read": true]]])
            let writeOnly = try await client.create(.leancloud, "Note", ["n": 4, "ACL": ["*": ["write": true]]])
            let plain = try await client.create(.leancloud, "Note", ["n": 5])
            let found = try await client.request(.leancloud, .get, "/classes/Note")
            #expect(Set(found.json["results"]?.arrayValue?.compactMap { $0["objectId"]?.stringValue } ?? []) == [readable, plain])
            #expect(try await client.fetch(.leancloud, "Note", writeOnly).json == [:])
        }
    }

    @Test("$inQuery without the master key does not see hidden inner objects")
    func subQuery() async throws {
        try await TestServer.with { client in
            let (open, hidden) = try await insertNotes(client, .leancloud)
            for id in [open, hidden] {
                _ = try await client.create(.leancloud, "Remark", ["note": ["__type": "Pointer", "className": "Note", "objectId": .string(id)]])
            }
            let condition: JSON = ["note": ["$inQuery": ["className": "Note", "where": [:]]]]
            let found = try await client.request(.leancloud, .get, "/classes/Remark?count=1&limit=0&" + URLQuery.whereClause(condition))
            #expect(found.json["count"] == 1)
            let master = try await client.request(.leancloud, .get, "/classes/Remark?count=1&limit=0&" + URLQuery.whereClause(condition), auth: .master)
            #expect(master.json["count"] == 2)
        }
    }

    @Test("include without the master key leaves a pointer to a hidden object unexpanded", arguments: Endpoint.dialects)
    func includeHidden(_ endpoint: Endpoint) async throws {
        try await TestServer.with { client in
            let (open, hidden) = try await insertNotes(client, endpoint)
            let pointer = { (id: String) -> JSON in ["__type": "Pointer", "className": "Note", "objectId": .string(id)] }
            _ = try await client.create(endpoint, "Card", ["open": pointer(open), "hidden": pointer(hidden)])
            let found = try await client.request(endpoint, .get, "/classes/Card?include=open,hidden")
            let card = try #require(found.json["results"]?.arrayValue?.first)
            #expect(card["open"]?["n"] == 1)
            #expect(card["hidden"]?["objectId"]?.stringValue == hidden)
            #expect(card["hidden"]?["n"] == nil)
            let master = try await client.request(endpoint, .get, "/classes/Card?include=open,hidden", auth: .master)
            #expect(master.json["results"]?.arrayValue?.first?["hidden"]?["n"] == 2)
        }
    }
}
