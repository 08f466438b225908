import CirrusModel
import Logging
import NIOCore
import NIOWebSocket

/// What every realtime session (LeanCloud's RTM, Parse's LiveQuery, Bmob's Socket.IO) does with its WebSocket: frames
/// are written to the connection in the order they are sent, a bounded number of them waiting; the reader answers pings
/// and closes and hands the data frames to the session; timers run on the connection's event loop. Nothing waits on
/// the client: a frame past the bound closes the connection, so a client that stops reading never grows the server's
/// memory or delays anyone else.
///
/// An idle socket costs the server its connection and one task, the reader's, kept shallow: frames go straight to the
/// channel (no writer task, no queue of its own: the channel's pending writes are the queue, counted here), timers are
/// the event loop's scheduled tasks, and the session handles each frame in a task of its own (``apart(_:)``).
final class RealtimeSocket: Sendable {
    let channel: any Channel
    let queueLimit: Int
    let logger: Logger
    private let lock = Lock()
    /// Frames sent and not yet written to the connection.
    nonisolated(unsafe) private var waiting = 0
    /// Whether no frame is sent any more (a close frame was, or the connection ended).
    nonisolated(unsafe) private var finished = false

    init(channel: any Channel, queueLimit: Int, logger: Logger) {
        self.channel = channel
        self.queueLimit = queueLimit
        self.logger = logger
    }

    /// Serves the connection: `handle` gets each text or binary frame and returns `false` to end it; `ended` runs once
    /// the reading has stopped.
    func run(
        _ socket: NIOAsyncChannel<WebSocketFrame, WebSocketFrame>, ended: () -> Void, handle: @escaping @Sendable (WebSocketFrame) async -> Bool
    ) async {
        do {
            try await socket.executeThenClose { inbound, _ in
                defer {
                    ended()
                    finish()
                }
                reading: for try await frame in inbound {
                    switch frame.opcode {
                    case .ping: send(WebSocketFrame(fin: true, opcode: .pong, data: frame.unmaskedData))
                    case .connectionClose:
                        send(WebSocketFrame(fin: true, opcode: .connectionClose, data: ByteBuffer()))
                        finish()
                        break reading
                    case .text, .binary:
                        guard await Self.apart({ await handle(frame) }) else { break reading }
                    default: continue
                    }
                }
            }
        } catch {
            logger.trace("a realtime socket ended", metadata: ["error": "\(error)"])
        }
        ended()
    }

    /// Runs `work` in a child task and returns its result. A task keeps the memory its deepest calls needed until it
    /// ends (its allocator keeps its slabs): work that goes deep (a login reads the database) done in the socket's
    /// long-lived task would keep kilobytes per idle socket.
    static func apart<T: Sendable>(_ work: @escaping @Sendable () async -> T) async -> T {
        await withTaskGroup(of: T.self) { group in
            group.addTask(operation: work)
            return await group.next()!
        }
    }

    /// Writes a frame after those sent before; one past the bound of frames waiting closes the connection.
    func send(_ frame: WebSocketFrame) {
        enum Admission { case write, ignore, overflow }
        let admission: Admission = lock.withLock {
            guard !finished else { return .ignore }
            guard waiting < queueLimit else {
                finished = true
                return .overflow
            }
            waiting += 1
            return .write
        }
        switch admission {
        case .write: write(frame)
        case .ignore: return
        case .overflow:
            logger.notice("a realtime socket's queue is full; closing it", metadata: ["limit": "\(queueLimit)"])
            channel.close(promise: nil)
        }
    }

    func send(text: String) {
        send(WebSocketFrame(fin: true, opcode: .text, data: ByteBuffer(string: text)))
    }

    private func write(_ frame: WebSocketFrame) {
        let written = channel.eventLoop.makePromise(of: Void.self)
        written.futureResult.whenComplete { [self] _ in lock.withLock { waiting -= 1 } }
        channel.writeAndFlush(frame, promise: written)
    }

    /// Sends a close frame with `code` and `reason` after what was sent before, then ends the connection.
    func close(code: UInt16, reason: String) {
        var data = ByteBuffer()
        data.write(webSocketErrorCode: WebSocketErrorCode(codeNumber: Int(code)))
        data.writeString(String(reason.prefix(120)))
        let frame = WebSocketFrame(fin: true, opcode: .connectionClose, data: data)
        let first = lock.withLock {
            defer { finished = true }
            return !finished
        }
        guard first else { return }
        let channel = channel
        channel.writeAndFlush(frame).whenComplete { _ in channel.close(promise: nil) }
        // A client that does not read never lets the close frame out: its connection is cut after 5 s.
        channel.eventLoop.scheduleTask(in: .seconds(5)) { channel.close(promise: nil) }
    }

    /// Returns once the connection has closed.
    func closed() async {
        try? await channel.closeFuture.get()
    }

    /// Sends nothing more and closes the connection at once.
    func close() {
        finish()
        channel.close(promise: nil)
    }

    /// Sends nothing more: what was sent is still written, before the connection closes.
    func finish() {
        lock.withLock { finished = true }
    }

    /// Runs `body` on the connection's event loop after `delay`, unless the connection has closed by then.
    func after(_ delay: Duration, _ body: @escaping @Sendable () -> Void) {
        let scheduled = channel.eventLoop.scheduleTask(in: TimeAmount(delay), body)
        channel.closeFuture.whenComplete { _ in scheduled.cancel() }
    }

    /// Runs `body` on the connection's event loop every `interval` while the connection lasts.
    func every(_ interval: Duration, _ body: @escaping @Sendable () -> Void) {
        let repeated = channel.eventLoop.scheduleRepeatedTask(initialDelay: TimeAmount(interval), delay: TimeAmount(interval)) { _ in body() }
        channel.closeFuture.whenComplete { _ in repeated.cancel() }
    }
}
