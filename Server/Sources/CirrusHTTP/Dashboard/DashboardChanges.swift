import CirrusModel
import CirrusStorage
import Foundation
import HTTPTypes
import Hummingbird
import ServiceLifecycle

/// The console's live view of a class: `GET /dashboard/changes?className=<name>` answers a stream of server-sent events,
/// one per committed create, update or delete of the class (from every instance sharing the database), so that the
/// open data browser shows them without polling.
///
/// An event names the change and the object only (`{"kind", "className", "objectId", "updatedKeys"}`, its `id` the
/// change's place in the log); the page reads what it shows through the API as before. A stream ends after
/// ``lifetime`` (the browser's `EventSource` reconnects and the session is checked again), when the server shuts
/// down, or when the browser goes away (a comment every ``heartbeat`` finds that out). An instance serves at most
/// ``maximumStreams`` at once; more are refused with 429, so that open consoles cannot use up the connections.
final class DashboardChanges: Sendable {
    let log: ChangeLog
    let lifetime: Duration
    let heartbeat: Duration
    let maximumStreams: Int
    private let open = Lock()
    nonisolated(unsafe) private var streams = 0

    /// - Parameters:
    ///   - heartbeat: how often a comment is sent; a closed connection is noticed at the next write, so this is also
    ///     how long a stream the browser left (another class opened) keeps its place.
    init(log: ChangeLog, lifetime: Duration = .seconds(300), heartbeat: Duration = .seconds(5), maximumStreams: Int = 64) {
        self.log = log
        self.lifetime = lifetime
        self.heartbeat = heartbeat
        self.maximumStreams = maximumStreams
    }

    /// How many streams are open on this instance.
    var openStreams: Int { open.withLock { streams } }

    /// The event stream of `className`'s changes, or 429 when this instance serves ``maximumStreams`` already.
    /// - Throws: ``APIError`` for a missing or bad class name.
    func response(className: String?) throws -> Response {
        guard let className, !className.isEmpty else { throw APIError(.invalidParameter, "className is required.") }
        guard ClassName.isValid(className) else { throw APIError(.invalidClassName, "Invalid class name: \(className).") }
        let admitted = open.withLock {
            guard streams < maximumStreams else { return false }
            streams += 1
            return true
        }
        guard admitted else {
            throw APIError(.rateLimited, "This instance serves \(maximumStreams) live console views already: close one, or refresh by hand.")
        }
        // The place is given back when the body is done with, written or not (a client gone before it starts).
        let place = Place { [self] in open.withLock { streams -= 1 } }
        let body = ResponseBody { [self, place] writer in
            _ = place
            try await stream(log.subscribe(), of: className, to: &writer)
            try await writer.finish(nil)
        }
        let headers: HTTPFields = [
            .contentType: "text/event-stream; charset=utf-8", .cacheControl: "no-store",
            HTTPField.Name("X-Accel-Buffering")!: "no",
        ]
        return Response(status: .ok, headers: headers, body: body)
    }

    /// Writes the events of `className` until the lifetime ends, the server shuts down or the client is gone.
    private func stream(_ records: AsyncStream<ChangeRecord>, of className: String, to writer: inout any ResponseBodyWriter) async throws {
        let (events, sink) = AsyncStream.makeStream(of: String.self, bufferingPolicy: .bufferingNewest(1024))
        // One writer: the records and the heartbeats go through `events`, which ends with the lifetime or at shutdown
        // (the feeding task inherits the server's graceful-shutdown context).
        let feeder = Task { [heartbeat, lifetime] in
            await cancelWhenGracefulShutdown {
                await withTaskGroup(of: Void.self) { group in
                    group.addTask {
                        for await record in records where record.className == className {
                            if let event = Self.event(record) { sink.yield(event) }
                        }
                    }
                    group.addTask {
                        let end = ContinuousClock.now + lifetime
                        while ContinuousClock.now < end, !Task.isCancelled {
                            try? await Task.sleep(for: min(heartbeat, end - ContinuousClock.now))
                            sink.yield(": still here\n\n")
                        }
                    }
                    await group.next()
                    group.cancelAll()
                }
            }
            sink.finish()
        }
        defer { feeder.cancel() }
        try await writer.write(ByteBuffer(string: "retry: 3000\n: live changes of \(className)\n\n"))
        for await event in events {
            try await writer.write(ByteBuffer(string: event))
        }
    }

    /// The server-sent event of one change, or `nil` for what the browser does not show (log-ins).
    static func event(_ record: ChangeRecord) -> String? {
        guard record.kind != .loggedIn else { return nil }
        var data: [String: JSON] = [
            "kind": .string(record.kind.rawValue), "className": .string(record.className), "objectId": .string(record.objectId),
        ]
        if !record.updatedKeys.isEmpty { data["updatedKeys"] = .array(record.updatedKeys.map(JSON.string)) }
        return "id: \(record.sequence)\nevent: change\ndata: \(JSONWriter.string(.object(data)))\n\n"
    }
}

/// Runs its action once, when it is released.
private final class Place: Sendable {
    let release: @Sendable () -> Void

    init(_ release: @escaping @Sendable () -> Void) {
        self.release = release
    }

    deinit {
        release()
    }
}
