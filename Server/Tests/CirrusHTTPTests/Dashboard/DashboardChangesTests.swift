import CirrusModel
import CirrusStorage
@testable import CirrusHTTP
import Foundation
import Hummingbird
import Testing

/// The console's live view (`/dashboard/changes`): the events of one class from the change log, and the bounds on a
/// stream (its lifetime, its client, the number open). Over HTTP, with a real browser and a server shutting down,
/// in Tests/python/test_dashboard.py.
@Suite("Web console: live views")
struct DashboardChangesTests {
    /// A client reading a stream: keeps what arrives; gone (its writes fail) once it has `events` events.
    final class Reader: ResponseBodyWriter, @unchecked Sendable {
        private let lock = NSLock()
        private var text = ""
        let leavesAfter: Int?

        init(leavesAfter events: Int? = nil) {
            leavesAfter = events
        }

        var received: String { lock.withLock { text } }

        /// The data of the `change` events received.
        var events: [JSON] {
            received.components(separatedBy: "\n").filter { $0.hasPrefix("data: ") }.compactMap { try? JSONParser.parse(Array($0.dropFirst(6).utf8)) }
        }

        func write(_ buffer: ByteBuffer) async throws {
            let count = lock.withLock {
                text += String(buffer: buffer)
                return text.components(separatedBy: "\n").filter { $0.hasPrefix("data: ") }.count
            }
            if let leavesAfter, count >= leavesAfter { throw CancellationError() }
        }

        func finish(_ trailingHeaders: HTTPFields?) async throws {}
    }

    static func record(_ kind: ChangeRecord.Kind, _ className: String, _ id: String, keys: [String] = []) -> ChangeRecord {
        let object = StoredObject(className: className, objectId: id, createdAt: Timestamp(millisecondsSince1970: 0), updatedAt: Timestamp(millisecondsSince1970: 0), acl: nil, fields: [:])
        return ChangeRecord(kind: kind, className: className, objectId: id, before: kind == .created ? nil : object,
            after: kind == .deleted ? nil : object, updatedKeys: keys)
    }

    /// Waits until the log has `count` subscribers.
    static func subscribed(_ log: ChangeLog, _ count: Int) async throws {
        for _ in 0..<1000 where log.subscriberCount < count { try await Task.sleep(for: .milliseconds(5)) }
        try #require(log.subscriberCount == count)
    }

    @Test("a class's stream carries its creates, updates and deletes in order, and nothing of other classes or log-ins")
    func events() async throws {
        let log = ChangeLog()
        let changes = DashboardChanges(log: log, heartbeat: .seconds(60))
        #expect(try changes.response(className: "Post").headers[.contentType] == "text/event-stream; charset=utf-8")
        let reader = Reader(leavesAfter: 3)
        // As the server does: the reply is let go once its body is written.
        let writing = Task { try await changes.response(className: "Post").body.write(reader) }
        try await Self.subscribed(log, 1)
        log.append([
            Self.record(.created, "Post", "p1"), Self.record(.created, "Comment", "c1"), Self.record(.loggedIn, "_User", "u1"),
            Self.record(.updated, "Post", "p1", keys: ["title"]), Self.record(.deleted, "Post", "p1"),
        ])
        _ = await writing.result
        #expect(reader.events == [
            ["kind": "created", "className": "Post", "objectId": "p1"],
            ["kind": "updated", "className": "Post", "objectId": "p1", "updatedKeys": ["title"]],
            ["kind": "deleted", "className": "Post", "objectId": "p1"],
        ])
        let ids = reader.received.components(separatedBy: "\n").filter { $0.hasPrefix("id: ") }.compactMap { Int64($0.dropFirst(4)) }
        #expect(ids.count == 3 && ids == ids.sorted())
        #expect(reader.received.hasPrefix("retry: "))
        // The client went away: the subscription and the stream's place are given back.
        try await Self.subscribed(log, 0)
        #expect(changes.openStreams == 0)
    }

    @Test("a stream ends after its lifetime, with a heartbeat comment meanwhile")
    func lifetime() async throws {
        let log = ChangeLog()
        let changes = DashboardChanges(log: log, lifetime: .milliseconds(300), heartbeat: .milliseconds(50))
        let reader = Reader()
        // Ends by itself (a stream that did not would hang the test), having said it is there meanwhile.
        try await changes.response(className: "Post").body.write(reader)
        #expect(reader.received.contains(": still here"))
        try await Self.subscribed(log, 0)
        #expect(changes.openStreams == 0)
    }

    @Test("an instance serves a bounded number of streams; a reply never written gives its place back")
    func limit() async throws {
        let log = ChangeLog()
        let changes = DashboardChanges(log: log, heartbeat: .seconds(60), maximumStreams: 2)
        let readers = [Reader(leavesAfter: 1), Reader(leavesAfter: 1)]
        var writing: [Task<Void, any Error>] = []
        for reader in readers {
            let response = try changes.response(className: "Post")
            writing.append(Task { try await response.body.write(reader) })
        }
        try await Self.subscribed(log, 2)
        #expect(throws: APIError.self) { try changes.response(className: "Post") }
        do {
            let refused = try? changes.response(className: "Post")
            #expect(refused == nil)
        }
        log.append([Self.record(.created, "Post", "p1")])
        for task in writing { _ = await task.result }
        #expect(changes.openStreams == 0)
        // Answered but dropped before its body was written (the client left first).
        do { _ = try changes.response(className: "Post") }
        #expect(changes.openStreams == 0)
        #expect(log.subscriberCount == 0)
    }

    @Test("a stream needs a valid class name", arguments: [nil, "", "no spaces", "1leading"])
    func className(_ name: String?) {
        #expect(throws: APIError.self) { try DashboardChanges(log: ChangeLog()).response(className: name) }
    }
}
