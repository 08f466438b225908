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
    let logger: Logger
    private let outgoing: AsyncStream<WebSocketFrame>.Continuation
    private let queue: AsyncStream<WebSocketFrame>
    private let channel: any Channel
    private let lock = Lock()
    private var clientIds: Set<String> = []
    private var nextEventId = 0

    /// The close codes of LeanCloud's realtime service.
    enum CloseCode: UInt16 {
        case appNotAvailable = 4100
        case loginTimeout = 4108
        case unparseable = 4114
        case queueFull = 4107
    }

    init(format: RTMFormat, appId: String, liveQuery: LiveQueryService, settings: LiveQuerySettings, channel: any Channel, logger: Logger) {
        self.format = format
        self.appId = appId
        self.liveQuery = liveQuery
        self.settings = settings
        self.channel = channel
        self.logger = logger
        (queue, outgoing) = AsyncStream.makeStream(of: WebSocketFrame.self, bufferingPolicy: .bufferingOldest(settings.queueLimit))
    }

    /// Serves the socket until the client closes it, breaks the protocol, or the server ends it.
    func serve(_ socket: NIOAsyncChannel<WebSocketFrame, WebSocketFrame>) async {
        do {
            try await socket.executeThenClose { inbound, outbound in
                let loginTimer = Task { [self] in
                    try await Task.sleep(for: settings.loginTimeout)
                    if lock.withLock({ clientIds.isEmpty }) { close(.loginTimeout, "No login within \(settings.loginTimeout).") }
                }
                defer { loginTimer.cancel() }
                try await withThrowingTaskGroup(of: Void.self) { group in
                    // The writer sends what is queued, a closing frame last, until the queue finishes.
                    group.addTask { [queue] in
                        for await frame in queue { try await outbound.write(frame) }
                    }
                    defer {
                        detachAll()
                        outgoing.finish()
                    }
                    for try await frame in inbound {
                        guard await handle(frame) else { break }
                    }
                }
            }
        } catch {
            logger.trace("a realtime socket ended", metadata: ["error": "\(error)"])
        }
        detachAll()
    }

    /// Handles one frame; `false` when the socket is to close.
    private func handle(_ frame: WebSocketFrame) async -> Bool {
        switch frame.opcode {
        case .ping:
            send(WebSocketFrame(fin: true, opcode: .pong, data: frame.unmaskedData))
            return true
        case .pong:
            return true
        case .connectionClose:
            send(WebSocketFrame(fin: true, opcode: .connectionClose, data: ByteBuffer()))
            outgoing.finish()
            return false
        case .text, .binary:
            if format == .json, frame.unmaskedData.readableBytesView.elementsEqual(Array("{}".utf8)) {
                send(WebSocketFrame(fin: true, opcode: .text, data: ByteBuffer(string: "{}")))
                return true
            }
            do {
                let command = try format.command(in: frame)
                if let reply = await respond(to: command) { send(format.frame(reply)) }
                return true
            } catch {
                close(.unparseable, "The frame could not be read: \(error).")
                return false
            }
        default:
            return true
        }
    }

    /// The reply to a command, if it has one.
    func respond(to command: RTMCommand) async -> RTMCommand? {
        switch command.cmd {
        case .login?:
            if let app = command.appId, app != appId {
                close(.appNotAvailable, "This server serves another app.")
                return nil
            }
            guard let clientId = command.installationId, !clientId.isEmpty, clientId.utf8.count <= 256 else {
                return error(command, code: 4103, "A LiveQuery login needs the subscription's id as installationId.")
            }
            lock.withLock { _ = clientIds.insert(clientId) }
            await liveQuery.attach(self, clientId: clientId)
            return RTMCommand(cmd: .loggedin, i: command.i, installationId: clientId, service: 1)
        case .logout?:
            if let clientId = command.installationId {
                liveQuery.detach(self, clientId: clientId)
                lock.withLock { _ = clientIds.remove(clientId) }
            } else {
                detachAll()
            }
            return RTMCommand(cmd: .loggedout, i: command.i, installationId: command.installationId, service: command.service)
        case .echo?:
            return RTMCommand(cmd: .echo, i: command.i)
        case .ack?:
            return nil
        default:
            guard command.i != nil else { return nil }
            return error(command, code: 4104, "This server speaks LiveQuery only: \(command.cmd.map { "\($0)" } ?? "a command without cmd") is not supported.")
        }
    }

    private func error(_ command: RTMCommand, code: Int32, _ reason: String) -> RTMCommand {
        RTMCommand(cmd: .error, i: command.i, errorMessage: RTMErrorMessage(code: code, reason: reason))
    }

    /// Queues an event as a `data` command to the client it is for.
    func deliver(_ event: LiveEvent) {
        let eventId = lock.withLock {
            nextEventId += 1
            return String(nextEventId)
        }
        let message = JSONWriter.string(LiveEventMessage.json(event))
        let command = RTMCommand(
            cmd: .data, appId: appId, installationId: event.subscription.clientId, service: 1,
            dataMessage: RTMDataMessage(ids: [eventId], msg: [message])
        )
        send(format.frame(command))
    }

    /// Queues a frame; a full queue closes the socket.
    private func send(_ frame: WebSocketFrame) {
        if case .dropped = outgoing.yield(frame) {
            logger.notice("a realtime socket's queue is full; closing it", metadata: ["limit": "\(settings.queueLimit)"])
            outgoing.finish()
            channel.close(promise: nil)
        }
    }

    /// Sends a close frame with a LeanCloud code and ends the socket.
    private func close(_ code: CloseCode, _ reason: String) {
        var data = ByteBuffer()
        data.write(webSocketErrorCode: WebSocketErrorCode(codeNumber: Int(code.rawValue)))
        data.writeString(String(reason.prefix(120)))
        outgoing.yield(WebSocketFrame(fin: true, opcode: .connectionClose, data: data))
        outgoing.finish()
        // The writer sends the close frame, then the connection closes.
        let channel = channel
        channel.eventLoop.scheduleTask(in: .milliseconds(200)) { channel.close(promise: nil) }
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
