#if canImport(Glibc)
@testable import Cirrus
import Foundation
import Glibc
import Testing

/// The POSIX client's frame handling over a socket pair, the test playing the server with raw frames: pings, closes
/// and protocol errors that the Cirrus server never sends.
@Suite("POSIX WebSocket connection", .timeLimit(.minutes(2)))
struct POSIXWebSocketConnectionTests {
    @Test("a server ping is answered with a masked pong of the same payload; a pong is skipped")
    func ping() async throws {
        let (connection, server) = try Self.pair()
        defer { server.close() }
        try server.send(WebSocketFrame(opcode: .pong, payload: [9]))
        try server.send(WebSocketFrame(opcode: .ping, payload: Array("are you there".utf8)))
        let pong = try server.next()
        #expect(pong == WebSocketFrame(opcode: .pong, payload: Array("are you there".utf8)))
        try server.send(WebSocketFrame(opcode: .text, payload: Array("after".utf8)))
        #expect(try await connection.receive() == .text("after"))
        connection.close(code: 1000, reason: "")
    }

    @Test("sent messages arrive as masked frames; fragmented server messages arrive whole")
    func messages() async throws {
        let (connection, server) = try Self.pair()
        defer { server.close() }
        try await connection.send(.text("hello"))
        try await connection.send(.binary(Data([1, 2, 3])))
        #expect(try server.next() == WebSocketFrame(opcode: .text, payload: Array("hello".utf8)))
        #expect(try server.next() == WebSocketFrame(opcode: .binary, payload: [1, 2, 3]))
        try server.send(WebSocketFrame(opcode: .text, payload: Array("frag".utf8), fin: false))
        try server.send(WebSocketFrame(opcode: .ping))
        try server.send(WebSocketFrame(opcode: .continuation, payload: Array("ment".utf8)))
        #expect(try await connection.receive() == .text("fragment"))
        #expect(try server.next().opcode == .pong)
        connection.close(code: 1000, reason: "")
    }

    @Test("the server's close is answered with its code, messages before it are still received, then receive throws it")
    func serverClose() async throws {
        let (connection, server) = try Self.pair()
        defer { server.close() }
        try server.send(WebSocketFrame(opcode: .text, payload: Array("last".utf8)))
        try server.send(WebSocketFrame.close(code: 4114, reason: "unreadable"))
        #expect(try server.next() == WebSocketFrame.close(code: 4114, reason: ""))
        #expect(try await connection.receive() == .text("last"))
        await #expect(throws: WebSocketError.closed(code: 4114, reason: "unreadable")) { try await connection.receive() }
        await #expect(throws: WebSocketError.self) { try await connection.send(.text("too late")) }
    }

    @Test("protocol errors close the connection with their code: a masked frame 1002, invalid UTF-8 1007", arguments: [
        (WebSocketFrameCodec.encode(WebSocketFrame(opcode: .text, payload: [0x61]), mask: [1, 2, 3, 4]), UInt16(1002)),
        (WebSocketFrameCodec.encode(WebSocketFrame(opcode: .text, payload: [0xC3, 0x28]), mask: nil), UInt16(1007)),
        (WebSocketFrameCodec.encode(WebSocketFrame(opcode: .ping, payload: [], fin: false), mask: nil), UInt16(1002)),
    ])
    func protocolErrors(bytes: [UInt8], code: UInt16) async throws {
        let (connection, server) = try Self.pair()
        defer { server.close() }
        try server.socket.sendAll(bytes)
        let close = try server.next()
        #expect(close.opcode == .close && Array(close.payload.prefix(2)) == [UInt8(code >> 8), UInt8(code & 0xFF)])
        let error = await #expect(throws: WebSocketError.self) { try await connection.receive() }
        guard case .closed(let closedCode?, _)? = error else {
            Issue.record("\(String(describing: error))")
            return
        }
        #expect(closedCode == code)
    }

    @Test("close sends a close frame once, ends a waiting receive, and the server sees the stream end")
    func localClose() async throws {
        let (connection, server) = try Self.pair()
        defer { server.close() }
        let waiting = try await Self.waitingReceive(connection)
        connection.close(code: 1000, reason: "bye")
        connection.close(code: 1001, reason: "again")
        #expect(try server.next() == WebSocketFrame.close(code: 1000, reason: "bye"))
        var rest = [UInt8](repeating: 0, count: 16)
        #expect(try server.socket.receive(into: &rest) == 0)
        await #expect(throws: WebSocketError.closed(code: 1000, reason: "bye")) { try await waiting.value }
    }

    @Test("a stream that ends without a close frame ends receive with no code")
    func brokenStream() async throws {
        let (connection, server) = try Self.pair()
        server.close()
        let error = await #expect(throws: WebSocketError.self) { try await connection.receive() }
        guard case .closed(nil, _)? = error else {
            Issue.record("\(String(describing: error))")
            return
        }
    }

    @Test("a cancelled receive throws CancellationError and leaves the connection usable")
    func cancelledReceive() async throws {
        let (connection, server) = try Self.pair()
        defer { server.close() }
        let waiting = try await Self.waitingReceive(connection)
        waiting.cancel()
        await #expect(throws: CancellationError.self) { try await waiting.value }
        try server.send(WebSocketFrame(opcode: .text, payload: Array("still here".utf8)))
        #expect(try await connection.receive() == .text("still here"))
        connection.close(code: 1000, reason: "")
    }

    /// A receive started on `connection`, given time to wait.
    private static func waitingReceive(_ connection: POSIXWebSocketConnection) async throws -> Task<WebSocketMessage, any Error> {
        let waiting = Task { try await connection.receive() }
        try await Task.sleep(for: .milliseconds(50))
        return waiting
    }

    /// A connection over one end of a socket pair, and the other end as the server.
    private static func pair() throws -> (POSIXWebSocketConnection, RawServer) {
        var descriptors: [Int32] = [0, 0]
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &descriptors) == 0 else { throw POSIXSocket.Failure(call: "socketpair", code: errno) }
        // The server's reads give up after 5 s, so that a missing frame fails the test instead of hanging it.
        var timeout = timeval(tv_sec: 5, tv_usec: 0)
        setsockopt(descriptors[1], SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        let connection = POSIXWebSocketConnection.start(socket: POSIXSocket(descriptor: descriptors[0]), subprotocol: nil)
        return (connection, RawServer(socket: POSIXSocket(descriptor: descriptors[1])))
    }
}

/// The server's end of a socket pair: unmasked frames out, the client's masked frames in.
private final class RawServer {
    let socket: POSIXSocket
    private var reader = WebSocketFrameReader(masked: true, maximumPayload: 1 << 20)

    init(socket: POSIXSocket) {
        self.socket = socket
    }

    func send(_ frame: WebSocketFrame) throws {
        try socket.sendAll(WebSocketFrameCodec.encode(frame, mask: nil))
    }

    /// The client's next frame.
    func next() throws -> WebSocketFrame {
        while true {
            if let frame = try reader.next() { return frame }
            var bytes = [UInt8](repeating: 0, count: 4096)
            let count = try socket.receive(into: &bytes)
            guard count > 0 else { throw WebSocketError.closed(code: nil, reason: "the client ended the stream") }
            reader.append(bytes[..<count])
        }
    }

    func close() {
        socket.shutdown()
        socket.close()
    }
}
#endif
