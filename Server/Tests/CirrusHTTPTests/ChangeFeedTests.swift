import CirrusTesting
import Testing

/// The object change feed: what live queries will subscribe to.
@Suite("Object change feed")
struct ChangeFeedTests {
    /// Collects the next `count` changes of `stream`, or fails after `seconds`.
    static func next(_ count: Int, of stream: AsyncStream<ObjectChange>, within seconds: Int = 10) async throws -> [ObjectChange] {
        try await withThrowingTaskGroup(of: [ObjectChange]?.self) { group in
            group.addTask {
                var changes: [ObjectChange] = []
                for await change in stream {
                    changes.append(change)
                    if changes.count == count { break }
                }
                return changes
            }
            group.addTask {
                try await Task.sleep(for: .seconds(seconds))
                return nil
            }
            let first = try await group.next() ?? nil
            group.cancelAll()
            return try #require(first, "fewer than \(count) changes within \(seconds) s")
        }
    }

    @Test("a subscriber gets the creates, updates and deletes of REST writes, batches and CQL, in order; failed writes give none")
    func localChanges() async throws {
        try await TestServer.with { server in
            let stream = server.changes.subscribe()
            let created = try await server.send(.leancloud, .post, "/1.1/classes/Note", json: ["n": 1])
            let id = try #require(created.json["objectId"]?.stringValue)
            #expect(try await server.send(.leancloud, .put, "/1.1/classes/Note/\(id)", json: ["n": 2]).status == 200)
            // A conditional update that matches nothing changes nothing, and says so to no one.
            let refused = try await server.send(.leancloud, .put, "/1.1/classes/Note/\(id)?where=%7B%22n%22%3A9%7D", json: ["n": 3])
            #expect(refused.status != 200)
            let batch = try await server.send(.leancloud, .post, "/1.1/batch", json: ["requests": [
                ["method": "POST", "path": "/1.1/classes/Note", "body": ["n": 4]],
                ["method": "DELETE", "path": .string("/1.1/classes/Note/\(id)")],
            ]])
            let batchId = try #require(batch.json.arrayValue?.first?["success"]?["objectId"]?.stringValue)
            let cql = try await server.send(.leancloud, .get, "/1.1/cloudQuery?cql=insert%20into%20Note(n)%20values(5)")
            let cqlId = try #require(cql.json["results"]?.arrayValue?.first?["objectId"]?.stringValue)
            let changes = try await Self.next(5, of: stream)
            #expect(changes == [
                ObjectChange(kind: .created, className: "Note", objectIds: [id]),
                ObjectChange(kind: .updated, className: "Note", objectIds: [id]),
                ObjectChange(kind: .created, className: "Note", objectIds: [batchId]),
                ObjectChange(kind: .deleted, className: "Note", objectIds: [id]),
                ObjectChange(kind: .created, className: "Note", objectIds: [cqlId]),
            ])
        }
    }

    @Test("a subscription ends when its stream is dropped, and a late subscriber gets only later changes")
    func subscriptionLifetime() async throws {
        try await TestServer.with { server in
            do {
                let stream = server.changes.subscribe()
                #expect(server.changes.subscriberCount == 1)
                _ = stream
            }
            for _ in 0..<100 where server.changes.subscriberCount > 0 { try await Task.sleep(for: .milliseconds(10)) }
            #expect(server.changes.subscriberCount == 0)
            _ = try await server.send(.leancloud, .post, "/1.1/classes/Note", json: ["n": 1])
            let late = server.changes.subscribe()
            let created = try await server.send(.leancloud, .post, "/1.1/classes/Note", json: ["n": 2])
            #expect(try await Self.next(1, of: late).first?.objectIds == [try #require(created.json["objectId"]?.stringValue)])
        }
    }

    @Test("on one PostgreSQL database, a write through one instance reaches the subscribers of another; a rolled-back batch reaches no one")
    func acrossInstances() async throws {
        try await PostgresTestDatabase.withSchema(poolSize: 8) { url in
            try await TestServer.with(sharedDatabase: url) { a in
                try await TestServer.with(sharedDatabase: url) { b in
                    let stream = b.changes.subscribe()
                    // The listener of b's notices starts with the server; a write before it listens would be missed.
                    try await Task.sleep(for: .milliseconds(500))
                    let failed = try await a.send(.leancloud, .post, "/1.1/batch", json: ["requests": [
                        ["method": "POST", "path": "/1.1/classes/Note", "body": ["n": 1]],
                        ["method": "PUT", "path": "/1.1/classes/Note/aaaaaaaaaaaaaaaaaaaaaaaa", "body": ["n": 2]],
                    ], "transaction": true])
                    #expect(failed.status != 200)
                    let created = try await a.send(.leancloud, .post, "/1.1/classes/Note", json: ["n": 1])
                    let id = try #require(created.json["objectId"]?.stringValue)
                    #expect(try await a.send(.leancloud, .delete, "/1.1/classes/Note/\(id)").status == 200)
                    let changes = try await Self.next(2, of: stream)
                    #expect(changes == [
                        ObjectChange(kind: .created, className: "Note", objectIds: [id]),
                        ObjectChange(kind: .deleted, className: "Note", objectIds: [id]),
                    ])
                }
            }
        }
    }
}
