#if canImport(Glibc)
import Foundation

/// A `ws://` WebSocket client of its own over POSIX sockets (RFC 6455), for Linux, where URLSession's WebSocket
/// needs a libcurl built with WebSocket support.
///
/// One thread per connection (a Foundation `Thread`) connects, makes the handshake, then reads: it decodes the
/// server's frames, answers pings, reassembles fragmented messages into the ``WebSocketInbox`` that ``receive()``
/// takes them from, and ends the connection on the server's close, a protocol error or a broken stream. Writes go out
/// one at a time under a lock, each frame masked with a new random mask.
final class POSIXWebSocketConnection: WebSocketConnection, @unchecked Sendable {
    /// The largest message taken from the server (its fragments added up); a larger one closes the connection (1009).
    static let maximumMessageSize = 16 << 20
    /// How many bytes one read takes at most.
    private static let readSize = 64 * 1024

    let subprotocol: String?
    private let socket: POSIXSocket
    private let inbox = WebSocketInbox()
    /// Serialises writes, and the descriptor's close with them; guards ``closeFrameSent``.
    private let writeLock = NSLock()
    /// Whether a close frame went out: no frame may follow it.
    private var closeFrameSent = false

    /// A connection over `socket`, whose handshake is done; ``read(startingWith:)`` must run for it to receive.
    init(socket: POSIXSocket, subprotocol: String?) {
        self.socket = socket
        self.subprotocol = subprotocol
    }

    /// Opens a connection to `url` (`ws://` only).
    /// - Throws: ``WebSocketError``: an invalid request, an unreachable server, a refused handshake, or no open
    ///   connection within `timeout` seconds; `CancellationError` when the task is cancelled.
    static func connect(to url: URL, protocols: [String], headers: [String: String], timeout: TimeInterval) async throws -> POSIXWebSocketConnection {
        let handshake = try WebSocketHandshake(url: url, protocols: protocols, headers: headers)
        let deadline = ContinuousClock.now + .seconds(timeout)
        let opening = WebSocketOpening<POSIXWebSocketConnection>()
        return try await opening.value(timeout: timeout) {
            startThread { run(handshake, deadline: deadline, opening: opening) }
        }
    }

    /// A connection over `socket` whose handshake is done, reading on a thread of its own from `buffered` (bytes
    /// read after the response head) on.
    static func start(socket: POSIXSocket, subprotocol: String?, buffered: [UInt8] = []) -> POSIXWebSocketConnection {
        let connection = POSIXWebSocketConnection(socket: socket, subprotocol: subprotocol)
        startThread { connection.read(startingWith: buffered) }
        return connection
    }

    func send(_ message: WebSocketMessage) async throws {
        switch message {
        case .text(let text): try write(WebSocketFrame(opcode: .text, payload: Array(text.utf8)))
        case .binary(let data): try write(WebSocketFrame(opcode: .binary, payload: Array(data)))
        }
    }

    func receive() async throws -> WebSocketMessage {
        try await inbox.receive()
    }

    /// Sends the close frame unless a write is in progress or the peer's buffer is full (it never waits), ends the
    /// inbox (messages not yet received are dropped) and shuts the socket, which ends the reading thread.
    func close(code: UInt16, reason: String) {
        sendCloseFrame(WebSocketFrame.close(code: code, reason: reason), waiting: false)
        inbox.finish(.closed(code: code, reason: reason), discardingMessages: true)
        socket.shutdown()
    }

    /// The thread's work when connecting: the TCP connection and the handshake, then reading, unless the opening was
    /// decided otherwise meanwhile (timed out, cancelled).
    private static func run(_ handshake: WebSocketHandshake, deadline: ContinuousClock.Instant, opening: WebSocketOpening<POSIXWebSocketConnection>) {
        let connection: POSIXWebSocketConnection
        let buffered: [UInt8]
        do {
            (connection, buffered) = try open(handshake, deadline: deadline)
        } catch {
            opening.resolve(.failure(error))
            return
        }
        guard opening.resolve(.success(connection)) else {
            connection.socket.close()
            return
        }
        connection.read(startingWith: buffered)
    }

    /// Connects and makes the handshake: the connection and the bytes read after the response head.
    private static func open(_ handshake: WebSocketHandshake, deadline: ContinuousClock.Instant) throws -> (POSIXWebSocketConnection, [UInt8]) {
        let socket = try POSIXSocket.connect(host: handshake.host, port: handshake.port, deadline: deadline)
        do {
            try socket.sendAll(handshake.request)
            let (head, rest) = try readHead(socket, deadline: deadline)
            let subprotocol = try handshake.subprotocol(acceptedIn: head)
            return (POSIXWebSocketConnection(socket: socket, subprotocol: subprotocol), rest)
        } catch let error as POSIXSocket.Failure {
            socket.close()
            throw WebSocketError.handshakeFailed("\(error)")
        } catch {
            socket.close()
            throw error
        }
    }

    /// The response head (without its closing empty line) and the bytes after it, read until the deadline.
    private static func readHead(_ socket: POSIXSocket, deadline: ContinuousClock.Instant) throws -> (ArraySlice<UInt8>, [UInt8]) {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            if let length = WebSocketHandshake.headLength(in: bytes[...]) { return (bytes[..<(length - 4)], Array(bytes[length...])) }
            guard bytes.count < WebSocketHandshake.maximumHeadSize else {
                throw WebSocketError.handshakeFailed("the response head is over \(WebSocketHandshake.maximumHeadSize) bytes")
            }
            try socket.waitReadable(until: deadline)
            let count = try socket.receive(into: &chunk)
            guard count > 0 else { throw WebSocketError.handshakeFailed("the server closed the connection without answering the upgrade") }
            bytes += chunk[..<count]
        }
    }

    /// Reads until the connection ends, then ends the inbox with why, answers with a close frame where one is due, and
    /// closes the socket once no write is in progress (a write blocked on the peer fails once the socket is shut down).
    private func read(startingWith buffered: [UInt8]) {
        let end = readFrames(startingWith: buffered)
        inbox.finish(end.error)
        if let reply = end.reply { sendCloseFrame(reply, waiting: true) }
        socket.shutdown()
        writeLock.withLock { socket.close() }
    }

    /// Handles the server's frames until one ends the connection or the stream ends: why it ended, and the close frame
    /// to answer with (the server's close, a protocol error).
    private func readFrames(startingWith buffered: [UInt8]) -> Ending {
        var reader = WebSocketFrameReader(masked: false, maximumPayload: Self.maximumMessageSize)
        var assembler = WebSocketMessageAssembler(maximumMessageSize: Self.maximumMessageSize)
        var chunk = [UInt8](repeating: 0, count: Self.readSize)
        reader.append(buffered)
        while true {
            do {
                while let frame = try reader.next() {
                    if let end = try handle(frame, with: &assembler) { return end }
                }
                let count = try socket.receive(into: &chunk)
                guard count > 0 else { return Ending(error: .closed(code: nil, reason: "the connection ended without a close frame"), reply: nil) }
                reader.append(chunk[..<count])
            } catch let error as WebSocketProtocolError {
                return Ending(error: .closed(code: error.code, reason: error.reason), reply: WebSocketFrame.close(code: error.code, reason: error.reason))
            } catch {
                return Ending(error: .closed(code: nil, reason: "the connection broke: \(error)"), reply: nil)
            }
        }
    }

    /// Acts on one frame: a message to the inbox, a pong for a ping. The end of the connection, if this frame (a
    /// close) ends it.
    private func handle(_ frame: WebSocketFrame, with assembler: inout WebSocketMessageAssembler) throws -> Ending? {
        switch try assembler.receive(frame) {
        case .message(let message)?:
            inbox.deliver(message)
        case .ping(let payload)?:
            // A pong that cannot be written finds the connection broken at the next read.
            try? write(WebSocketFrame(opcode: .pong, payload: payload))
        case .close(let code, let reason)?:
            // The close is answered with the server's code (RFC 6455, 5.5.1), or without one when it had none.
            let reply = code.map { WebSocketFrame.close(code: $0, reason: "") } ?? WebSocketFrame(opcode: .close)
            return Ending(error: .closed(code: code, reason: reason), reply: reply)
        case .pong?, nil:
            break
        }
        return nil
    }

    /// Why reading ended, and the close frame to send for it.
    private struct Ending {
        let error: WebSocketError
        let reply: WebSocketFrame?
    }

    /// Writes a data or control frame, masked, unless a close frame went out.
    /// - Throws: ``WebSocketError/closed(code:reason:)``, why the connection ended when it has (the server's close),
    ///   else that it is closing or broke.
    private func write(_ frame: WebSocketFrame) throws {
        let bytes = WebSocketFrameCodec.encode(frame, mask: Self.randomMask())
        try writeLock.withLock {
            guard !closeFrameSent else { throw inbox.endingError ?? .closed(code: nil, reason: "the connection is closing") }
            do {
                try socket.sendAll(bytes)
            } catch {
                socket.shutdown()
                throw inbox.endingError ?? .closed(code: nil, reason: "the connection broke: \(error)")
            }
        }
    }

    /// Sends `frame`, a close frame, unless one went out. A failure is ignored: the connection is ending anyway.
    /// - Parameter waiting: `false` to give up rather than wait for a write in progress or for room in the peer's
    ///   buffer.
    private func sendCloseFrame(_ frame: WebSocketFrame, waiting: Bool) {
        if waiting {
            writeLock.lock()
        } else if !writeLock.try() {
            return
        }
        defer { writeLock.unlock() }
        guard !closeFrameSent else { return }
        closeFrameSent = true
        try? socket.sendAll(WebSocketFrameCodec.encode(frame, mask: Self.randomMask()), waiting: waiting)
    }

    /// Four random bytes, a new mask for each frame (RFC 6455, 5.3).
    private static func randomMask() -> [UInt8] {
        withUnsafeBytes(of: UInt32.random(in: .min ... .max)) { Array($0) }
    }

    /// Runs `body` on a new thread.
    private static func startThread(_ body: @escaping @Sendable () -> Void) {
        let thread = Thread(block: body)
        thread.name = "Cirrus WebSocket"
        thread.start()
    }
}
#endif
