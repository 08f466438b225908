import CirrusModel
import Logging
import NIOCore
import NIOWebSocket

/// What every realtime session (LeanCloud's RTM, Parse's LiveQuery, Bmob's Socket.IO) does with its WebSocket: one
/// writer sends a bounded queue of frames, the reader answers pings and closes and hands the data frames to the
/// session. Nothing waits on the client: a frame past the queue's bound closes the connection, so a client that stops
/// reading never grows the server's memory or delays anyone else.
final class RealtimeSocket: Sendable {
    let channel: any Channel
    let queueLimit: Int
    let logger: Logger
    private let queue: AsyncStream<WebSocketFrame>
    private let outgoing: AsyncStream<WebSocketFrame>.Continuation

    init(channel: any Channel, queueLimit: Int, logger: Logger) {
        self.channel = channel
        self.queueLimit = queueLimit
        self.logger = logger
        (queue, outgoing) = AsyncStream.makeStream(of: WebSocketFrame.self, bufferingPolicy: .bufferingOldest(queueLimit))
    }

    /// Serves the connection: `alongside` runs while it lasts (timers), `handle` gets each text or binary frame and
    /// returns `false` to end it; `ended` runs once the reading has stopped.
    func run(
        _ socket: NIOAsyncChannel<WebSocketFrame, WebSocketFrame>, alongside: @escaping @Sendable () async throws -> Void = {},
        ended: () -> Void, handle: (WebSocketFrame) async -> Bool
    ) async {
        do {
            try await socket.executeThenClose { inbound, outbound in
                let background = Task { try await alongside() }
                defer { background.cancel() }
                try await withThrowingTaskGroup(of: Void.self) { group in
                    // The writer sends what is queued, a closing frame last, until the queue finishes.
                    group.addTask { [queue] in
                        for await frame in queue { try await outbound.write(frame) }
                    }
                    defer {
                        ended()
                        outgoing.finish()
                    }
                    reading: for try await frame in inbound {
                        switch frame.opcode {
                        case .ping: send(WebSocketFrame(fin: true, opcode: .pong, data: frame.unmaskedData))
                        case .connectionClose:
                            send(WebSocketFrame(fin: true, opcode: .connectionClose, data: ByteBuffer()))
                            outgoing.finish()
                            break reading
                        case .text, .binary:
                            guard await handle(frame) else { break reading }
                        default: continue
                        }
                    }
                }
            }
        } catch {
            logger.trace("a realtime socket ended", metadata: ["error": "\(error)"])
        }
        ended()
    }

    /// Queues a frame; a full queue closes the connection.
    func send(_ frame: WebSocketFrame) {
        if case .dropped = outgoing.yield(frame) {
            logger.notice("a realtime socket's queue is full; closing it", metadata: ["limit": "\(queueLimit)"])
            close()
        }
    }

    func send(text: String) {
        send(WebSocketFrame(fin: true, opcode: .text, data: ByteBuffer(string: text)))
    }

    /// Sends a close frame with `code` and `reason`, then ends the connection.
    func close(code: UInt16, reason: String) {
        var data = ByteBuffer()
        data.write(webSocketErrorCode: WebSocketErrorCode(codeNumber: Int(code)))
        data.writeString(String(reason.prefix(120)))
        outgoing.yield(WebSocketFrame(fin: true, opcode: .connectionClose, data: data))
        outgoing.finish()
        // The writer sends the close frame first, then the connection closes; this is only for a writer stuck on a
        // client that does not read (a short delay would cut the close frame off on a busy server).
        let channel = channel
        channel.eventLoop.scheduleTask(in: .seconds(5)) { channel.close(promise: nil) }
    }

    /// Returns once the connection has closed.
    func closed() async {
        try? await channel.closeFuture.get()
    }

    /// Ends the queue and closes the connection at once.
    func close() {
        outgoing.finish()
        channel.close(promise: nil)
    }

    /// Stops reading further: the writer drains what is queued.
    func finish() {
        outgoing.finish()
    }
}
