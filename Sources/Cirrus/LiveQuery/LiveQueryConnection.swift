import CirrusModel
import Foundation

/// The one WebSocket of an application's live queries, and their subscriptions on the server.
///
/// It speaks LeanCloud's realtime protocol in its JSON form (`lc.json.3`): the socket's URL comes from the server's
/// router (`GET /v1/route`), the socket logs in with the connection's id (the `id` of every subscribe), and events
/// are `data` commands routed to the live query by their `query_id`. It runs while a live query is subscribed: when
/// the socket drops it reconnects after a growing pause (0.5 s doubling to 15 s), logs in with Cirrus's
/// `resumeAfter` (the last change position it saw: the server replays the client's events since), renews every
/// subscription (`subscribe/ping`; one the server no longer has is made again) and tells each live query
/// ``LCLiveQuery/Event/reconnected(complete:)``. An `echo` every 30 s keeps the socket alive and the position fresh.
actor LiveQueryConnection {
    private weak var application: LCApplication?
    /// The client's id: the `installationId` of the socket's login and the `id` of its subscribe requests.
    let clientId = UUID().uuidString.lowercased()
    private var socket: (any WebSocketConnection)?
    private var runner: Task<Void, Never>?
    /// Whether ``runner`` was told to stop (it may still be winding down).
    private var stopped = false
    private var loggedIn = false
    private var waiters: [CheckedContinuation<Void, any Error>] = []
    private var subscribers: [String: WeakLiveQuery] = [:]
    /// The change-log position through which every event of this client has arrived; `nil` before the first login.
    private(set) var position: Int64?
    private var nextSerial: Int32 = 0
    /// Seconds connecting and logging in may take.
    var timeout: TimeInterval = 15
    /// Seconds between an idle socket's `echo`s.
    var keepalive: TimeInterval = 30
    /// A pause (seconds) before the next reconnection, set by tests to hold the connection down.
    private var hold: TimeInterval?

    init(application: LCApplication) {
        self.application = application
    }

    // MARK: Subscriptions

    /// Connects and logs in, unless already logged in.
    /// - Throws: `LCError` when the server cannot be reached or refuses the login.
    func start() async throws {
        await ensureRunning()
        guard !loggedIn else { return }
        try await withCheckedThrowingContinuation { waiters.append($0) }
    }

    /// Makes `liveQuery`'s subscription on the server; its `query_id`.
    func subscribe(_ liveQuery: LCLiveQuery) async throws -> String {
        let id = try await create(liveQuery)
        subscribers[id] = WeakLiveQuery(liveQuery)
        await ensureRunning()
        return id
    }

    /// Starts the connection's loop unless it runs; one that was stopped finishes first, so that only one runs.
    private func ensureRunning() async {
        if stopped, let previous = runner { await previous.value }
        guard runner == nil else { return }
        stopped = false
        runner = Task { await run() }
    }

    /// Ends a subscription; the socket closes with the last one.
    func unsubscribe(queryId: String) async throws {
        subscribers[queryId] = nil
        defer { if liveSubscribers.isEmpty { stop() } }
        _ = try await rest("/LiveQuery/unsubscribe", ["id": .string(clientId), "query_id": .string(queryId)])
    }

    private func create(_ liveQuery: LCLiveQuery) async throws -> String {
        let reply = try await rest("/LiveQuery/subscribe", ["query": liveQuery.subscription, "id": .string(clientId)])
        guard let id = reply["query_id"]?.stringValue else { throw LCError.malformed("The subscribe reply has no query_id.") }
        return id
    }

    private func rest(_ path: String, _ body: [String: JSON]) async throws -> JSON {
        guard let application else { throw LCError.inconsistency("The application is gone.") }
        return try await RESTClient(application: application).send("POST", path, body: .object(body))
    }

    private var liveSubscribers: [String: LCLiveQuery] {
        subscribers.compactMapValues(\.liveQuery)
    }

    // MARK: The socket

    /// Connects, serves, and reconnects while someone is subscribed: until stopped, until every live query it served
    /// is gone, after a first attempt that failed for no subscriber, or when the server serves another app (4100).
    private func run() async {
        var failures = 0
        while !Task.isCancelled {
            var refused = false
            do {
                try await serve(try await open())
            } catch {
                fail(waiters: LCError(error: error))
                if case .closed(let code?, _) = error as? WebSocketError, code == 4100 { refused = true }
            }
            socket = nil
            loggedIn = false
            if refused || Task.isCancelled || liveSubscribers.isEmpty { break }
            failures += 1
            let pause = hold ?? min(15, 0.5 * Double(1 << min(failures - 1, 5)))
            hold = nil
            try? await Task.sleep(nanoseconds: UInt64(pause * 1e9))
        }
        runner = nil
    }

    /// Opens the socket the router names and sends the login.
    private func open() async throws -> any WebSocketConnection {
        guard let application else { throw CancellationError() }
        let settings = try application.requireSettings()
        let url = try await route(settings)
        let socket = try await WebSocketConnector.connect(to: url, protocols: ["lc.json.3"], timeout: timeout)
        self.socket = socket
        nextSerial += 1
        let login = RTMCommand(
            cmd: .login, appId: settings.id, i: nextSerial, installationId: clientId, service: 1, resumeAfter: position
        )
        try await socket.send(.text(JSONWriter.string(login.json)))
        return socket
    }

    /// The socket's URL from the server's router.
    private func route(_ settings: LCApplication.Settings) async throws -> URL {
        var components = URLComponents(url: settings.serverURL.appendingPathComponent("v1/route"), resolvingAgainstBaseURL: false)
        components?.queryItems = [
            URLQueryItem(name: "appId", value: settings.id), URLQueryItem(name: "installationId", value: clientId),
            URLQueryItem(name: "secure", value: "1"),
        ]
        guard let url = components?.url else { throw LCError.inconsistency("No router URL for \(settings.serverURL).") }
        guard let application else { throw LCError.inconsistency("The application is gone.") }
        let response = try await application.send(TransportRequest(method: "GET", url: url))
        guard let server = try RESTClient.decode(response)["server"]?.stringValue, let socketURL = URL(string: server) else {
            throw LCError.malformed("The router named no LiveQuery server.")
        }
        return socketURL
    }

    /// Reads the socket until it ends, echoing while idle.
    private func serve(_ socket: any WebSocketConnection) async throws {
        let resuming = position != nil
        let interval = keepalive
        let echoes = Task { [weak self] in
            while !Task.isCancelled {
                try? await Task.sleep(nanoseconds: UInt64(interval * 1e9))
                await self?.echo(on: socket)
            }
        }
        defer {
            echoes.cancel()
            socket.close(code: 1000, reason: "")
        }
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            let message = try await loggedIn ? socket.receive() : receive(on: socket, before: deadline)
            guard case .text(let text) = message, let command = try? JSONParser.parse(Data(text.utf8)).objectValue else { continue }
            try handle(command, resuming: resuming)
        }
    }

    /// The next message, or a timeout error once `deadline` passes (the login must be answered in time).
    private func receive(on socket: any WebSocketConnection, before deadline: Date) async throws -> WebSocketMessage {
        try await withThrowingTaskGroup(of: WebSocketMessage?.self) { group in
            group.addTask { try await socket.receive() }
            group.addTask {
                try await Task.sleep(nanoseconds: UInt64(max(0, deadline.timeIntervalSinceNow) * 1e9))
                return nil
            }
            defer { group.cancelAll() }
            guard let message = try await group.next() ?? nil else {
                socket.close(code: 1000, reason: "")
                throw WebSocketError.timedOut
            }
            return message
        }
    }

    private func handle(_ command: [String: JSON], resuming: Bool) throws {
        advance(to: command["position"]?.intValue)
        switch command["cmd"]?.stringValue {
        case "data"?:
            for message in command["msg"]?.arrayValue ?? [] { deliver(message.objectValue ?? [:]) }
        case "loggedin"?:
            loggedIn = true
            fail(waiters: nil)
            if resuming { Task { await renew(replayed: command["resumed"]?.boolValue ?? false) } }
        case "error"? where !loggedIn:
            let error = command["error"]?.objectValue ?? [:]
            throw LCError(code: Int(error["code"]?.intValue ?? 0), reason: error["reason"]?.stringValue ?? error["detail"]?.stringValue)
        case "goaway"?:
            throw WebSocketError.closed(code: nil, reason: "The server is going away.")
        default:
            break
        }
    }

    private func deliver(_ message: [String: JSON]) {
        advance(to: message["sequence"]?.intValue)
        guard let id = message["query_id"]?.stringValue, let liveQuery = subscribers[id]?.liveQuery, let application,
            let event = LCLiveQuery.Event(message: message, application: application)
        else { return }
        liveQuery.emit(event)
    }

    private func advance(to sequence: Int64?) {
        guard let sequence else { return }
        position = max(position ?? sequence, sequence)
    }

    private func echo(on socket: any WebSocketConnection) async {
        guard loggedIn else { return }
        nextSerial += 1
        try? await socket.send(.text(JSONWriter.string(RTMCommand(cmd: .echo, i: nextSerial).json)))
    }

    /// After a reconnection: keeps each subscription (making again one the server lost) and tells its live query
    /// whether every event of the drop was replayed.
    private func renew(replayed: Bool) async {
        for (id, liveQuery) in liveSubscribers {
            var kept = true
            do {
                _ = try await rest("/LiveQuery/subscribe/ping", ["id": .string(clientId), "query_id": .string(id)])
            } catch let error as LCError where error.code == 101 || error.code == 404 {
                kept = false
                guard let renewed = try? await create(liveQuery) else { continue }
                subscribers[id] = nil
                subscribers[renewed] = WeakLiveQuery(liveQuery)
                liveQuery.renamed(to: renewed)
            } catch {}
            liveQuery.emit(.reconnected(complete: replayed && kept))
        }
    }

    /// Resumes the calls waiting for the login: with `error`, or successfully when `nil`.
    private func fail(waiters error: (any Error)?) {
        let waiting = waiters
        waiters = []
        for waiter in waiting {
            if let error { waiter.resume(throwing: error) } else { waiter.resume() }
        }
    }

    private func stop() {
        stopped = true
        runner?.cancel()
        socket?.close(code: 1000, reason: "")
    }

    // MARK: Testing

    /// Drops the socket as a network failure would, and keeps it down for `duration` before reconnecting.
    func drop(holdingFor duration: TimeInterval) {
        hold = duration
        socket?.close(code: 4000, reason: "dropped")
    }
}

/// A live query the connection does not keep alive: one its app let go of stops receiving.
struct WeakLiveQuery {
    weak var liveQuery: LCLiveQuery?

    init(_ liveQuery: LCLiveQuery) {
        self.liveQuery = liveQuery
    }
}
