import CirrusModel
public import Foundation

/// A live query: the changes of the objects matching an ``LCQuery``, pushed by the server as they happen
/// (LeanCloud's LiveQuery). Events arrive through the `eventHandler` and through ``events``.
///
/// ```swift
/// let query = LCQuery(className: "Todo")
/// query.whereKey("done", .equalTo(false))
/// let liveQuery = try LCLiveQuery(query: query)
/// try await liveQuery.subscribe()
/// for await event in liveQuery.events {
///     if case .create(let todo) = event { print(todo["title"]) }
/// }
/// ```
///
/// All live queries of an application share one WebSocket. When it drops, the SDK reconnects by itself, with growing
/// pauses, and re-subscribes (seed LQ-10); beyond LeanCloud's SDKs, it resumes from the last change it saw, so the
/// server replays what happened during a short drop (within its retention window) and no event is lost: the
/// ``Event/reconnected(complete:)`` event says whether that held. Inner queries and selected keys are not supported
/// (LQ-03); the query's `limit`, `skip` and order are ignored.
public final class LCLiveQuery: @unchecked Sendable {
    public let application: LCApplication
    public let query: LCQuery
    private let handler: (@Sendable (LCLiveQuery, Event) -> Void)?
    private let handlerQueue: DispatchQueue
    private let lock = Lock()
    private var queryId: String?
    private var streams: [Int: AsyncStream<Event>.Continuation] = [:]
    private var nextStream = 0

    /// A live query of `query`.
    /// - Parameters:
    ///   - eventHandler: called with each event, on `eventQueue`.
    /// - Throws: `LCError` when the query has inner queries (LiveQuery does not follow them).
    public init(
        application: LCApplication = .default, query: LCQuery, eventQueue: DispatchQueue = .main,
        eventHandler: (@Sendable (LCLiveQuery, Event) -> Void)? = nil
    ) throws {
        guard query.relatedTo == nil, query.redirectKey == nil else {
            throw LCError.inconsistency("LiveQuery does not follow relation queries.")
        }
        self.application = application
        self.query = query
        handler = eventHandler
        handlerQueue = eventQueue
    }

    deinit {
        for continuation in streams.values { continuation.finish() }
    }

    /// The events from now on, as a stream (each access makes a new one; it ends after ``unsubscribe()``).
    public var events: AsyncStream<Event> {
        let (stream, continuation) = AsyncStream.makeStream(of: Event.self, bufferingPolicy: .bufferingNewest(10_000))
        let token = lock.withLock {
            nextStream += 1
            streams[nextStream] = continuation
            return nextStream
        }
        continuation.onTermination = { [weak self] _ in
            guard let self else { return }
            _ = self.lock.withLock { self.streams.removeValue(forKey: token) }
        }
        return stream
    }

    /// Whether the live query is subscribed.
    public var isSubscribed: Bool { lock.withLock { queryId != nil } }

    /// Subscribes: from now on, the changes of the matching objects arrive as events. The subscriber's rights are
    /// the current user's (an object it may not read sends nothing).
    /// - Throws: `LCError` for an invalid query or session, a server that cannot be reached, or when already
    ///   subscribed.
    public func subscribe() async throws {
        guard !isSubscribed else { throw LCError.inconsistency("The live query is already subscribed.") }
        let connection = application.liveQueryConnection
        try await connection.start()
        let id = try await connection.subscribe(self)
        lock.withLock { queryId = id }
    }

    /// Unsubscribes: no more events arrive, and the ``events`` streams end.
    /// - Throws: `LCError` when the server refused or could not be reached (the live query is unsubscribed here
    ///   all the same).
    public func unsubscribe() async throws {
        guard let id = lock.withLock({ queryId }) else { throw LCError.inconsistency("The live query is not subscribed.") }
        lock.withLock { queryId = nil }
        defer { finishStreams() }
        try await application.liveQueryConnection.unsubscribe(queryId: id)
    }

    /// The `query` of LeanCloud's subscribe request.
    var subscription: JSON {
        var members: [String: JSON] = ["className": .string(query.className), "where": query.whereJSON]
        if query.includeACL { members["returnACL"] = true }
        return .object(members)
    }

    /// The server gave the subscription another id (it was made again after a reconnection).
    func renamed(to id: String) {
        lock.withLock { queryId = id }
    }

    /// Hands `event` to the handler and every stream.
    func emit(_ event: Event) {
        let continuations = lock.withLock { Array(streams.values) }
        for continuation in continuations { continuation.yield(event) }
        if let handler { handlerQueue.async { handler(self, event) } }
    }

    private func finishStreams() {
        let continuations = lock.withLock {
            let all = Array(streams.values)
            streams = [:]
            return all
        }
        for continuation in continuations { continuation.finish() }
    }
}

/// LeanCloud's Swift SDK calls it `LiveQuery`.
public typealias LiveQuery = LCLiveQuery

// The completion-handler and blocking forms of the calls.
extension LCLiveQuery {
    /// Subscribes; `completion` gets `.success` or `.failure(error:)` on `completionQueue`.
    @discardableResult
    public func subscribe(completionQueue: DispatchQueue = .main, completion: @escaping (LCBooleanResult) -> Void) -> LCRequest {
        Call.start(on: completionQueue, completion: completion) { try await self.subscribe() }
    }

    /// Subscribes, blocking the calling thread.
    public func subscribe() -> LCBooleanResult {
        Call.wait { try await self.subscribe() }
    }

    /// Unsubscribes; `completion` gets `.success` or `.failure(error:)` on `completionQueue`.
    @discardableResult
    public func unsubscribe(completionQueue: DispatchQueue = .main, completion: @escaping (LCBooleanResult) -> Void) -> LCRequest {
        Call.start(on: completionQueue, completion: completion) { try await self.unsubscribe() }
    }

    /// Unsubscribes, blocking the calling thread.
    public func unsubscribe() -> LCBooleanResult {
        Call.wait { try await self.unsubscribe() }
    }
}
