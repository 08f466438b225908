import CirrusLiveQuery
import CirrusModel
import Logging
import NIOCore
import NIOHTTP1
import NIOWebSocket

/// One LeanCloud realtime socket serving LiveQuery: `login` attaches it to its client's subscriptions (the
/// `installationId` is the subscribe's `id`), events go out as `data` commands (service 1, no `i`), and it answers
/// `logout`, `echo` and, in JSON, the `{}` heartbeat; `ack` needs nothing. Any other command with an `i` is answered
/// with an error, one the server cannot read closes the socket with 4114, one that stays logged out past the login
/// timeout with 4108, and a login to another app with 4100 (after which the SDKs stop reconnecting).
///
/// Events wait in a bounded queue; a client that stops reading until the queue is full is disconnected, so it never
/// grows the server's memory or delays anyone else, and its SDK re-subscribes when it reconnects.
final class RTMSession: LiveSink, @unchecked Sendable {
    let format: RTMFormat
    let appId: String
    let liveQuery: LiveQueryService
    let settings: LiveQuerySettings
    let socket: RealtimeSocket
    private let lock = Lock()
    private var clientIds: Set<String> = []
    /// Held while an event gets its id and is queued, so that ids follow the order of the queue.
    private let sending = Lock()
    private var nextEventId = 0
    /// The live events of clients whose login is replaying what they missed.
    private var held: [String: [LiveEvent]] = [:]
    /// The position through which a resumed client's replay sent its events.
    private var replayedThrough: [String: Int64] = [:]

    /// The close codes of LeanCloud's realtime service.
    enum CloseCode: UInt16 {
        case appNotAvailable = 4100
        case loginTimeout = 4108
        case unparseable = 4114
    }

    init(format: RTMFormat, appId: String, liveQuery: LiveQueryService, settings: LiveQuerySettings, channel: any Channel, logger: Logger) {
        self.format = format
        self.appId = appId
        self.liveQuery = liveQuery
        self.settings = settings
        socket = RealtimeSocket(channel: channel, queueLimit: settings.queueLimit, logger: logger)
    }

    /// Serves the socket until the client closes it, breaks the protocol, or the server ends it.
    func serve(_ connection: NIOAsyncChannel<WebSocketFrame, WebSocketFrame>) async {
        let (timeout, socket) = (settings.loginTimeout, socket)
        socket.after(timeout) { [self] in
            if lock.withLock({ clientIds.isEmpty }) { socket.close(code: CloseCode.loginTimeout.rawValue, reason: "No login within \(timeout).") }
        }
        await socket.run(connection, ended: { detachAll() }, handle: { [self] in await handle($0) })
    }

    /// Handles a data frame; `false` when the socket is to close.
    private func handle(_ frame: WebSocketFrame) async -> Bool {
        if format == .json, frame.unmaskedData.readableBytesView.elementsEqual(Array("{}".utf8)) {
            socket.send(text: "{}")
            return true
        }
        do {
            let command = try format.command(in: frame)
            if let reply = await respond(to: command) { socket.send(format.frame(reply)) }
            return true
        } catch {
            socket.close(code: CloseCode.unparseable.rawValue, reason: "The frame could not be read: \(error).")
            return false
        }
    }

    /// The reply to a command, if it has one.
    func respond(to command: RTMCommand) async -> RTMCommand? {
        switch command.cmd {
        case .login?:
            return await login(command)
        case .logout?:
            if let clientId = command.installationId {
                liveQuery.detach(self, clientId: clientId)
                lock.withLock { _ = clientIds.remove(clientId) }
            } else {
                detachAll()
            }
            return RTMCommand(cmd: .loggedout, i: command.i, installationId: command.installationId, service: command.service)
        case .echo?:
            return RTMCommand(cmd: .echo, i: command.i, position: liveQuery.position)
        case .ack?:
            return nil
        default:
            guard command.i != nil else { return nil }
            return error(command, code: 4104, "This server speaks LiveQuery only: \(command.cmd.map { "\($0)" } ?? "a command without cmd") is not supported.")
        }
    }

    /// Attaches the socket to the client it logs in as. A login with Cirrus's `resumeAfter` first gets the client's
    /// events after that position (live events wait meanwhile, and those the replay covered are dropped), then the
    /// `loggedin` reply saying whether the replay was complete; every `loggedin` carries the position to resume after.
    private func login(_ command: RTMCommand) async -> RTMCommand? {
        if let app = command.appId, app != appId {
            socket.close(code: CloseCode.appNotAvailable.rawValue, reason: "This server serves another app.")
            return nil
        }
        guard let clientId = command.installationId, !clientId.isEmpty, clientId.utf8.count <= 256 else {
            return error(command, code: 4103, "A LiveQuery login needs the subscription's id as installationId.")
        }
        guard let resumeAfter = command.resumeAfter else {
            lock.withLock { _ = clientIds.insert(clientId) }
            await liveQuery.attach(self, clientId: clientId)
            return RTMCommand(cmd: .loggedin, i: command.i, installationId: clientId, service: 1, position: liveQuery.position)
        }
        lock.withLock {
            clientIds.insert(clientId)
            held[clientId] = []
        }
        await liveQuery.attach(self, clientId: clientId)
        let replay = await liveQuery.replay(clientId: clientId, after: resumeAfter)
        for event in replay.events { send(event) }
        socket.send(format.frame(RTMCommand(
            cmd: .loggedin, i: command.i, installationId: clientId, service: 1, position: replay.through, resumed: replay.complete
        )))
        lock.withLock { replayedThrough[clientId] = replay.through }
        // The live events that came meanwhile, in batches until none is left; only then does `deliver` send directly,
        // so none overtakes another.
        while true {
            let batch = lock.withLock {
                let batch = held[clientId] ?? []
                held[clientId] = batch.isEmpty ? nil : []
                return batch
            }
            if batch.isEmpty { break }
            for event in batch where event.sequence > replay.through { send(event) }
        }
        return nil
    }

    private func error(_ command: RTMCommand, code: Int32, _ reason: String) -> RTMCommand {
        RTMCommand(cmd: .error, i: command.i, errorMessage: RTMErrorMessage(code: code, reason: reason))
    }

    /// Queues an event as a `data` command to the client it is for; held while the client's login replays what it
    /// missed, dropped when that replay covered it.
    func deliver(_ event: LiveEvent) {
        let clientId = event.subscription.clientId
        let send = lock.withLock {
            if held[clientId] != nil {
                held[clientId]?.append(event)
                return false
            }
            return event.sequence > replayedThrough[clientId] ?? .min
        }
        if send { self.send(event) }
    }

    /// LeanCloud's `goaway`: the SDKs reconnect through the router, so to another instance.
    func goAway() async {
        socket.send(format.frame(RTMCommand(cmd: .goaway)))
        socket.close(code: 1001, reason: "The server is shutting down.")
        await socket.closed()
    }

    /// Queues an event with the socket's next event id.
    private func send(_ event: LiveEvent) {
        sending.withLock {
            nextEventId += 1
            socket.send(frame(of: event, id: String(nextEventId)))
        }
    }

    /// An event's `data` command: the message spliced around its object's shared encoding (``LiveEventMessage``).
    private func frame(of event: LiveEvent, id eventId: String) -> WebSocketFrame {
        let message = LiveEventMessage.fragment(event)
        guard format != .json else {
            // The flat JSON form carries the message as an object.
            let command: JSONWriter.Fragment = .object([
                "cmd": .value("data"), "appId": .value(.string(appId)), "installationId": .value(.string(event.subscription.clientId)),
                "service": .value(1), "ids": .value([.string(eventId)]), "msg": .array([message]),
            ])
            return WebSocketFrame(fin: true, opcode: .text, data: ByteBuffer(bytes: JSONWriter.bytes(command)))
        }
        let command = RTMCommand(
            cmd: .data, appId: appId, installationId: event.subscription.clientId, service: 1,
            dataMessage: RTMDataMessage(ids: [eventId], msg: [String(decoding: JSONWriter.bytes(message), as: UTF8.self)])
        )
        return format.frame(command)
    }

    private func detachAll() {
        let ids = lock.withLock {
            let ids = clientIds
            clientIds = []
            return ids
        }
        for id in ids { liveQuery.detach(self, clientId: id) }
    }
}
