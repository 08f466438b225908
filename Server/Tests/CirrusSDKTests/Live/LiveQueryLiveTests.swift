@testable import Cirrus
import CirrusModel
import CirrusTesting
import Foundation
import Testing

/// LCLiveQuery against an in-process server: its WebSocket (the SDK's own client on Linux), the REST subscribe, the
/// five events, the three call forms, and a dropped connection that loses nothing.
@Suite("LiveQuery on a live server", .timeLimit(.minutes(2)))
struct LiveQueryLiveTests {
    @Test("a subscription streams create, update, enter, leave and delete with the updated keys, and unsubscribe ends it")
    func events() async throws {
        try await withLiveApp { application, _ in
            let query = LCQuery(application: application, className: "Todo")
            query.whereKey("priority", .greaterThan(0))
            let liveQuery = try LCLiveQuery(application: application, query: query)
            let stream = liveQuery.events
            try await liveQuery.subscribe()
            #expect(liveQuery.isSubscribed)
            let todo = LCObject(application: application, className: "Todo")
            try todo.set("priority", value: 1)
            try await todo.save()
            for (priority, title) in [(2, "a"), (-1, "b"), (3, "c")] {
                try todo.set("priority", value: priority)
                try todo.set("title", value: title)
                try await todo.save()
            }
            try await todo.delete()
            let received = try await Self.next(5, of: stream)
            #expect(received.map(\.summary) == ["create 1", "update 2 priority,title", "leave -1 priority,title", "enter 3 priority,title", "delete 3"])
            try await liveQuery.unsubscribe()
            #expect(!liveQuery.isSubscribed)
            #expect(try await Self.rest(of: stream).isEmpty, "the stream ends after unsubscribe, with no other event")
        }
    }

    @Test("the completion-handler and blocking forms subscribe and unsubscribe, and the handler gets events on its queue")
    func callForms() async throws {
        try await withLiveApp { application, _ in
            let queue = DispatchQueue(label: "live-query-events")
            let received = Locked<[String]>([])
            let liveQuery = try LCLiveQuery(application: application, query: LCQuery(application: application, className: "Note"), eventQueue: queue) {
                _, event in received.mutate { $0.append(event.summary) }
            }
            let subscribed = await withCheckedContinuation { continuation in
                _ = liveQuery.subscribe(completionQueue: queue) { continuation.resume(returning: $0.isSuccess) }
            }
            #expect(subscribed)
            let note = LCObject(application: application, className: "Note")
            try await note.save()
            try await Self.waitUntil { received.value.count == 1 }
            #expect(received.value == ["create nil"])
            let unsubscribed: LCBooleanResult = await onThread { liveQuery.unsubscribe() }
            #expect(unsubscribed.isSuccess)
            try await LCObject(application: application, className: "Note").save()
            try await Task.sleep(for: .milliseconds(300))
            #expect(received.value.count == 1, "no event after unsubscribe")
            let again: LCBooleanResult = await onThread { liveQuery.subscribe() }
            #expect(again.isSuccess && liveQuery.isSubscribed)
            let twice: LCBooleanResult = await onThread { liveQuery.subscribe() }
            #expect(twice.isFailure, "subscribing twice is an error")
            try await liveQuery.unsubscribe()
        }
    }

    @Test("after a dropped connection the SDK reconnects by itself and replays the changes of the drop, none lost or doubled")
    func resumption() async throws {
        try await withLiveApp { application, _ in
            let query = LCQuery(application: application, className: "Chat")
            query.whereKey("room", .equalTo("a"))
            let liveQuery = try LCLiveQuery(application: application, query: query)
            let stream = liveQuery.events
            try await liveQuery.subscribe()
            try await Self.save("Chat", ["room": "a", "n": 1], application)
            #expect(try await Self.next(1, of: stream).map(\.summary) == ["create nil"])
            await application.liveQueryConnection.drop(holdingFor: 1)
            for n in 2...4 { try await Self.save("Chat", ["room": "a", "n": n], application) }
            try await Self.save("Chat", ["room": "b", "n": 5], application)
            // The replayed creates come in order; the reconnection is told once the subscription is renewed.
            let replayed = try await Self.next(4, of: stream)
            #expect(replayed.compactMap { $0.object?.get("n")?.intValue } == [2, 3, 4])
            #expect(replayed.filter { $0.object == nil }.map(\.summary) == ["reconnected true"])
            try await Self.save("Chat", ["room": "a", "n": 6], application)
            let live = try await Self.next(1, of: stream)
            #expect(live.first?.object?.get("n")?.intValue == 6)
            try await liveQuery.unsubscribe()
        }
    }

    @Test("a query on a class the user may not find is refused, and an unreachable server is an error, not a hang")
    func refusals() async throws {
        try await withLiveApp { application, _ in
            // `_User`'s find permission is closed by default.
            let user = LCUser(application: application)
            user.username = "live-reader"
            user.password = "pass-word-0"
            try await user.signUp()
            let liveQuery = try LCLiveQuery(application: application, query: LCQuery(application: application, className: "_User"))
            await #expect(throws: LCError.self) { try await liveQuery.subscribe() }
            #expect(!liveQuery.isSubscribed)
        }
        let nowhere = try LCApplication(id: "app", key: "key", serverURL: "http://127.0.0.1:9")
        let liveQuery = try LCLiveQuery(application: nowhere, query: LCQuery(application: nowhere, className: "Todo"))
        await #expect(throws: LCError.self) { try await liveQuery.subscribe() }
    }

    static func save(_ className: String, _ fields: [String: Int], _ application: LCApplication) async throws {
        try await save(className, fields.mapValues { $0 as any LCValueConvertible & Sendable }, application)
    }

    static func save(_ className: String, _ fields: [String: any LCValueConvertible & Sendable], _ application: LCApplication) async throws {
        let object = LCObject(application: application, className: className)
        for (key, value) in fields { try object.set(key, value: value) }
        try await object.save()
    }

    /// The next `count` events of `stream`, or a failure after 10 seconds.
    static func next(_ count: Int, of stream: AsyncStream<LCLiveQuery.Event>) async throws -> [LCLiveQuery.Event] {
        try await within10Seconds("fewer than \(count) events within 10 s") {
            var events: [LCLiveQuery.Event] = []
            for await event in stream {
                events.append(event)
                if events.count == count { break }
            }
            return events
        }
    }

    /// The events of `stream` until it ends, or a failure when it has not ended after 10 seconds.
    static func rest(of stream: AsyncStream<LCLiveQuery.Event>) async throws -> [LCLiveQuery.Event] {
        try await within10Seconds("the stream did not end within 10 s") {
            var events: [LCLiveQuery.Event] = []
            for await event in stream { events.append(event) }
            return events
        }
    }

    /// What `collect` gathers, or a failure saying `failure` when it takes longer than 10 seconds (it is cancelled).
    static func within10Seconds(
        _ failure: String, _ collect: @escaping @Sendable () async -> [LCLiveQuery.Event]
    ) async throws -> [LCLiveQuery.Event] {
        try await withThrowingTaskGroup(of: [LCLiveQuery.Event]?.self) { group in
            group.addTask { await collect() }
            group.addTask {
                try await Task.sleep(for: .seconds(10))
                return nil
            }
            let first = try await group.next() ?? nil
            group.cancelAll()
            return try #require(first, "\(failure)")
        }
    }

    static func waitUntil(_ condition: @Sendable () -> Bool) async throws {
        for _ in 0..<200 where !condition() { try await Task.sleep(for: .milliseconds(50)) }
        #expect(condition())
    }
}

extension LCLiveQuery.Event {
    /// The operation, the object's `priority` (else `nil`), and the updated keys.
    var summary: String {
        switch self {
        case .create(let object): "create \(object.get("priority")?.intValue.map(String.init) ?? "nil")"
        case .update(let object, let keys): "update \(object.get("priority")?.intValue ?? 0) \(keys.joined(separator: ","))"
        case .enter(let object, let keys): "enter \(object.get("priority")?.intValue ?? 0) \(keys.joined(separator: ","))"
        case .leave(let object, let keys): "leave \(object.get("priority")?.intValue ?? 0) \(keys.joined(separator: ","))"
        case .delete(let object): "delete \(object.get("priority")?.intValue ?? 0)"
        case .login(let user): "login \(user.username?.value ?? "")"
        case .reconnected(let complete): "reconnected \(complete)"
        }
    }

    var object: LCObject? {
        switch self {
        case .create(let object), .update(let object, _), .enter(let object, _), .leave(let object, _), .delete(let object): object
        case .login(let user): user
        case .reconnected: nil
        }
    }
}

/// A value behind a lock, for handlers on other queues.
final class Locked<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Value

    init(_ value: Value) {
        stored = value
    }

    var value: Value { lock.withLock { stored } }

    func mutate(_ change: (inout Value) -> Void) {
        lock.withLock { change(&stored) }
    }
}
