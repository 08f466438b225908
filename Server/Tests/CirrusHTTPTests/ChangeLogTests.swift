import CirrusModel
import CirrusStorage
import CirrusTesting
import Foundation
import Synchronization
import Testing

/// The change log: every committed object write, with the object before and after, in commit order. LiveQuery and
/// the other live features read it.
@Suite("Change log")
struct ChangeLogTests {
    /// Collects the next `count` records of `stream`, or fails after `seconds`.
    static func next(_ count: Int, of stream: AsyncStream<ChangeRecord>, within seconds: Int = 10) async throws -> [ChangeRecord] {
        try await withThrowingTaskGroup(of: [ChangeRecord]?.self) { group in
            group.addTask {
                var records: [ChangeRecord] = []
                for await record in stream {
                    records.append(record)
                    if records.count == count { break }
                }
                return records
            }
            group.addTask {
                try await Task.sleep(for: .seconds(seconds))
                return nil
            }
            let first = try await group.next() ?? nil
            group.cancelAll()
            return try #require(first, "fewer than \(count) records within \(seconds) s")
        }
    }

    /// What a test compares of a record: kind, class, id, the images' fields and the updated keys.
    struct Summary: Equatable, CustomStringConvertible {
        var kind: ChangeRecord.Kind
        var objectId: String
        var before: [String: JSON]?
        var after: [String: JSON]?
        var updatedKeys: [String]

        init(_ kind: ChangeRecord.Kind, _ objectId: String, before: [String: JSON]?, after: [String: JSON]?, keys: [String] = []) {
            (self.kind, self.objectId, self.before, self.after, self.updatedKeys) = (kind, objectId, before, after, keys)
        }

        init(_ record: ChangeRecord) {
            self.init(record.kind, record.objectId, before: record.before?.fields, after: record.after?.fields, keys: record.updatedKeys)
        }

        var description: String { "\(kind) \(objectId) \(before.map { "\($0)" } ?? "-") → \(after.map { "\($0)" } ?? "-") \(updatedKeys)" }
    }

    @Test("REST writes, atomic operations, batches and CQL each add a record with the object before and after; refused writes add none")
    func recordsOfEveryWritePath() async throws {
        try await TestServer.with { server in
            let stream = server.changes.subscribe()
            let created = try await server.send(.leancloud, .post, "/1.1/classes/Note", json: ["n": 1, "title": "a"])
            let id = try #require(created.json["objectId"]?.stringValue)
            #expect(try await server.send(.leancloud, .put, "/1.1/classes/Note/\(id)", json: ["n": ["__op": "Increment", "amount": 2]]).status == 200)
            // A conditional update that matches nothing changes nothing, and the log says nothing.
            let refused = try await server.send(.leancloud, .put, "/1.1/classes/Note/\(id)?where=%7B%22n%22%3A9%7D", json: ["n": 3])
            #expect(refused.status != 200)
            // An all-or-nothing batch that fails leaves nothing in the log.
            let failed = try await server.send(.leancloud, .post, "/1.1/batch", json: ["requests": [
                ["method": "POST", "path": "/1.1/classes/Note", "body": ["n": 40]],
                ["method": "PUT", "path": "/1.1/classes/Note/aaaaaaaaaaaaaaaaaaaaaaaa", "body": ["n": 41]],
            ], "transaction": true])
            #expect(failed.status != 200)
            let batch = try await server.send(.leancloud, .post, "/1.1/batch", json: ["requests": [
                ["method": "POST", "path": "/1.1/classes/Note", "body": ["n": 4]],
                ["method": "PUT", "path": .string("/1.1/classes/Note/\(id)"), "body": ["title": "b", "ACL": ["*": ["read": true, "write": true]]]],
                ["method": "DELETE", "path": .string("/1.1/classes/Note/\(id)")],
            ]])
            let batchId = try #require(batch.json.arrayValue?.first?["success"]?["objectId"]?.stringValue)
            let cql = try await server.send(.leancloud, .get, "/1.1/cloudQuery?cql=insert%20into%20Note(n)%20values(5)")
            let cqlId = try #require(cql.json["results"]?.arrayValue?.first?["objectId"]?.stringValue)
            let records = try await Self.next(6, of: stream)
            #expect(records.map(Summary.init) == [
                Summary(.created, id, before: nil, after: ["n": 1, "title": "a"]),
                Summary(.updated, id, before: ["n": 1, "title": "a"], after: ["n": 3, "title": "a"], keys: ["n"]),
                Summary(.created, batchId, before: nil, after: ["n": 4]),
                Summary(.updated, id, before: ["n": 3, "title": "a"], after: ["n": 3, "title": "b"], keys: ["ACL", "title"]),
                Summary(.deleted, id, before: ["n": 3, "title": "b"], after: nil),
                Summary(.created, cqlId, before: nil, after: ["n": 5]),
            ])
            #expect(records.allSatisfy { $0.className == "Note" })
            #expect(records[3].before?.acl == nil && records[3].after?.acl == ["*": ["read": true, "write": true]])
            #expect(records.map(\.sequence) == records.map(\.sequence).sorted() && Set(records.map(\.sequence)).count == records.count)
        }
    }

    /// A deadlock this caught: records were yielded under the log's lock, and a yield takes the waiting task's lock,
    /// under which cancelling that task ends its subscription, which took the log's lock.
    @Test("subscriptions cancelled while records are handed out never block the log", .timeLimit(.minutes(3)))
    func cancellationDuringDelivery() async throws {
        let log = ChangeLog()
        let object = StoredObject(
            className: "Note", objectId: "a", createdAt: Timestamp(millisecondsSince1970: 0), updatedAt: Timestamp(millisecondsSince1970: 0), acl: nil,
            fields: [:]
        )
        // The writer: a thread of its own, as SQLite's writer is, appending until the readers are done.
        let done = Mutex(false)
        let writer = Thread {
            while !done.withLock({ $0 }) { log.append([.created(object)]) }
        }
        writer.start()
        for _ in 0..<100 {
            // Readers waiting for the next record when they are cancelled.
            let readers = (0..<8).map { _ in
                Task {
                    for await _ in log.subscribe() {}
                }
            }
            try await Task.sleep(for: .milliseconds(1))
            for reader in readers { reader.cancel() }
        }
        done.withLock { $0 = true }
        while !writer.isFinished { try await Task.sleep(for: .milliseconds(5)) }
        #expect(log.lastSequenceNumber > 0)
    }

    @Test("a subscription ends when its stream is dropped, a late subscriber gets only later records, and records are numbered in order")
    func subscriptionLifetime() async throws {
        let log = ChangeLog()
        let object = StoredObject(
            className: "Note", objectId: "a", createdAt: Timestamp(millisecondsSince1970: 0), updatedAt: Timestamp(millisecondsSince1970: 0), acl: nil,
            fields: [:]
        )
        do {
            let stream = log.subscribe()
            #expect(log.subscriberCount == 1)
            _ = stream
        }
        for _ in 0..<100 where log.subscriberCount > 0 { try await Task.sleep(for: .milliseconds(10)) }
        #expect(log.subscriberCount == 0)
        log.append([.created(object)])
        let late = log.subscribe()
        log.append([.deleted(object), .created(object)])
        let records = try await Self.next(2, of: late)
        #expect(records.map(\.kind) == [.deleted, .created])
        #expect(records.map(\.sequence) == [2, 3])
        #expect(log.lastSequenceNumber == 3)
    }

    @Test("the kept history answers from where it began, drops the oldest past its limit, and says when it no longer reaches back")
    func history() {
        let object = StoredObject(
            className: "Note", objectId: "a", createdAt: Timestamp(millisecondsSince1970: 0), updatedAt: Timestamp(millisecondsSince1970: 0), acl: nil,
            fields: [:]
        )
        let log = ChangeLog(position: 1_000)
        log.append([.created(object)])
        #expect(log.history(after: 1_000).complete == false, "no history is kept until asked")
        log.keepHistory(limit: 3, retention: .seconds(600))
        log.append((0..<2).map { _ in .created(object) })
        var answer = log.history(after: 1_001)
        #expect(answer.records.map(\.sequence) == [1_002, 1_003] && answer.through == 1_003 && answer.complete)
        #expect(log.history(after: 1_000).complete == false, "1 001 came before the history began")
        #expect(log.history(after: 1_003).records.isEmpty && log.history(after: 1_003).complete)
        #expect(log.history(after: 5_000).complete == false, "a position ahead of the log is another log's")
        log.append((0..<3).map { _ in .created(object) })
        answer = log.history(after: 1_003)
        #expect(answer.records.map(\.sequence) == [1_004, 1_005, 1_006] && answer.complete)
        #expect(log.history(after: 1_002).complete == false, "1 003 was dropped past the limit")
        let restarted = ChangeLog(position: 2_000)
        restarted.begin(at: 2_500)
        restarted.keepHistory(limit: 10, retention: .seconds(600))
        var record = ChangeRecord.created(object)
        record.sequence = 2_501
        restarted.deliver([record])
        #expect(restarted.history(after: 2_500).records.map(\.sequence) == [2_501] && restarted.history(after: 2_499).complete == false)
    }

    @Test("on one PostgreSQL database, the writes through one instance reach the log of another, with their images; a rolled-back batch reaches no one")
    func acrossInstances() async throws {
        try await PostgresTestDatabase.withSchema(poolSize: 8) { url in
            try await TestServer.with(sharedDatabase: url) { a in
                try await TestServer.with(sharedDatabase: url) { b in
                    let stream = b.changes.subscribe()
                    // b's reader starts from the log's end when it first reads; let it.
                    try await Task.sleep(for: .milliseconds(500))
                    let failed = try await a.send(.leancloud, .post, "/1.1/batch", json: ["requests": [
                        ["method": "POST", "path": "/1.1/classes/Note", "body": ["n": 1]],
                        ["method": "PUT", "path": "/1.1/classes/Note/aaaaaaaaaaaaaaaaaaaaaaaa", "body": ["n": 2]],
                    ], "transaction": true])
                    #expect(failed.status != 200)
                    let created = try await a.send(.leancloud, .post, "/1.1/classes/Note", json: ["n": 1])
                    let id = try #require(created.json["objectId"]?.stringValue)
                    #expect(try await a.send(.leancloud, .put, "/1.1/classes/Note/\(id)", json: ["n": ["__op": "Increment", "amount": 1]]).status == 200)
                    #expect(try await a.send(.leancloud, .delete, "/1.1/classes/Note/\(id)").status == 200)
                    let records = try await Self.next(3, of: stream)
                    #expect(records.map(Summary.init) == [
                        Summary(.created, id, before: nil, after: ["n": 1]),
                        Summary(.updated, id, before: ["n": 1], after: ["n": 2], keys: ["n"]),
                        Summary(.deleted, id, before: ["n": 2], after: nil),
                    ])
                }
            }
        }
    }
}
