@testable import Cirrus
import Foundation
import Testing

/// The WebSocket frame codec and the reassembly of messages, without sockets (RFC 6455, 5).
@Suite("WebSocket frames")
struct WebSocketFrameTests {
    private let maximum = 1 << 20

    @Test("a client frame is masked: the mask bit, the four mask bytes, and the payload XOR-ed with them")
    func masking() throws {
        let mask: [UInt8] = [0x37, 0xFA, 0x21, 0x3D]
        let bytes = WebSocketFrameCodec.encode(WebSocketFrame(opcode: .text, payload: Array("Hello".utf8)), mask: mask)
        // RFC 6455, 5.7: a masked text frame of "Hello".
        #expect(bytes == [0x81, 0x85, 0x37, 0xFA, 0x21, 0x3D, 0x7F, 0x9F, 0x4D, 0x51, 0x58])
        let decoded = try #require(try WebSocketFrameCodec.decode(bytes[...], masked: true, maximumPayload: maximum))
        #expect(decoded.frame == WebSocketFrame(opcode: .text, payload: Array("Hello".utf8)))
        #expect(decoded.length == bytes.count)
    }

    @Test("a server frame is not masked")
    func unmasked() throws {
        let bytes = WebSocketFrameCodec.encode(WebSocketFrame(opcode: .text, payload: Array("Hello".utf8)), mask: nil)
        #expect(bytes == [0x81, 0x05, 0x48, 0x65, 0x6C, 0x6C, 0x6F])
        #expect(try WebSocketFrameCodec.decode(bytes[...], masked: false, maximumPayload: maximum)?.frame.payload == Array("Hello".utf8))
    }

    @Test("lengths take the 7-bit, 16-bit and 64-bit forms and decode back", arguments: [
        (0, 2), (125, 2), (126, 4), (65_535, 4), (65_536, 10), (70_000, 10),
    ])
    func lengths(count: Int, headerSize: Int) throws {
        let payload = (0..<count).map { UInt8(truncatingIfNeeded: $0) }
        let bytes = WebSocketFrameCodec.encode(WebSocketFrame(opcode: .binary, payload: payload), mask: nil)
        #expect(bytes.count == headerSize + count)
        #expect(bytes[1] == (count <= 125 ? UInt8(count) : count <= 65_535 ? 126 : 127))
        let decoded = try #require(try WebSocketFrameCodec.decode(bytes[...], masked: false, maximumPayload: maximum))
        #expect(decoded.frame.payload == payload)
        #expect(decoded.length == bytes.count)
    }

    @Test("a frame whose bytes are incomplete decodes to nothing yet")
    func incomplete() throws {
        let bytes = WebSocketFrameCodec.encode(WebSocketFrame(opcode: .binary, payload: Array(repeating: 7, count: 300)), mask: nil)
        for end in [0, 1, 3, 4, 303] {
            #expect(try WebSocketFrameCodec.decode(bytes[..<end], masked: false, maximumPayload: maximum) == nil)
        }
    }

    @Test("the frame reader takes frames from bytes arriving one at a time")
    func readerInPieces() throws {
        let frames = [
            WebSocketFrame(opcode: .text, payload: Array("first".utf8)), WebSocketFrame(opcode: .ping, payload: [1, 2]),
            WebSocketFrame(opcode: .binary, payload: Array(repeating: 9, count: 200)),
        ]
        var reader = WebSocketFrameReader(masked: false, maximumPayload: maximum)
        var read: [WebSocketFrame] = []
        for byte in frames.flatMap({ WebSocketFrameCodec.encode($0, mask: nil) }) {
            reader.append([byte])
            while let frame = try reader.next() { read.append(frame) }
        }
        #expect(read == frames)
    }

    @Test("fragments are reassembled into one message, with control frames between them")
    func fragmentation() throws {
        var assembler = WebSocketMessageAssembler(maximumMessageSize: maximum)
        #expect(try assembler.receive(WebSocketFrame(opcode: .text, payload: Array("Hel".utf8), fin: false)) == nil)
        #expect(try assembler.receive(WebSocketFrame(opcode: .ping, payload: [42])) == .ping([42]))
        #expect(try assembler.receive(WebSocketFrame(opcode: .continuation, payload: Array("lo, ".utf8), fin: false)) == nil)
        #expect(try assembler.receive(WebSocketFrame(opcode: .pong)) == .pong)
        #expect(try assembler.receive(WebSocketFrame(opcode: .continuation, payload: Array("world".utf8))) == .message(.text("Hello, world")))
        #expect(try assembler.receive(WebSocketFrame(opcode: .binary, payload: [1], fin: false)) == nil)
        #expect(try assembler.receive(WebSocketFrame(opcode: .continuation, payload: [2])) == .message(.binary(Data([1, 2]))))
    }

    @Test("a UTF-8 character split across fragments is whole in the message")
    func splitCharacter() throws {
        var assembler = WebSocketMessageAssembler(maximumMessageSize: maximum)
        let bytes = Array("κόσμε".utf8)
        #expect(try assembler.receive(WebSocketFrame(opcode: .text, payload: Array(bytes[..<3]), fin: false)) == nil)
        #expect(try assembler.receive(WebSocketFrame(opcode: .continuation, payload: Array(bytes[3...]))) == .message(.text("κόσμε")))
    }

    @Test("a continuation outside a message, or a new message inside one, is a protocol error (1002)")
    func fragmentSequence() throws {
        var assembler = WebSocketMessageAssembler(maximumMessageSize: maximum)
        #expect(throws: WebSocketProtocolError.protocolError("a continuation frame outside a message")) {
            try assembler.receive(WebSocketFrame(opcode: .continuation, payload: [1]))
        }
        _ = try assembler.receive(WebSocketFrame(opcode: .text, payload: [0x61], fin: false))
        #expect(throws: WebSocketProtocolError.protocolError("a new message inside a fragmented one")) {
            try assembler.receive(WebSocketFrame(opcode: .binary, payload: [1]))
        }
    }

    @Test("control frames may not be fragmented nor carry more than 125 bytes (1002)")
    func controlRules() throws {
        let fragmentedPing: [UInt8] = [0x09, 0x00]
        #expect(throws: WebSocketProtocolError.protocolError("a fragmented control frame")) {
            try WebSocketFrameCodec.decode(fragmentedPing[...], masked: false, maximumPayload: maximum)
        }
        let longPing = [0x89, 126, 0, 126] + Array(repeating: UInt8(0), count: 126)
        #expect(throws: WebSocketProtocolError.protocolError("a control frame of 126 bytes (at most 125)")) {
            try WebSocketFrameCodec.decode(longPing[...], masked: false, maximumPayload: maximum)
        }
    }

    @Test("reserved bits, unknown opcodes, a masked server frame and a 64-bit length with its top bit are protocol errors (1002)")
    func protocolErrors() {
        let frames: [[UInt8]] = [
            [0xC1, 0x00], [0x83, 0x00], [0x81, 0x80, 1, 2, 3, 4], [0x82, 127, 0x80, 0, 0, 0, 0, 0, 0, 1],
        ]
        for bytes in frames {
            let error = #expect(throws: WebSocketProtocolError.self) {
                try WebSocketFrameCodec.decode(bytes[...], masked: false, maximumPayload: maximum)
            }
            #expect(error?.code == 1002)
        }
        #expect(throws: WebSocketProtocolError.protocolError("an unmasked client frame")) {
            try WebSocketFrameCodec.decode([0x81, 0x00][...], masked: true, maximumPayload: maximum)
        }
    }

    @Test("a frame over the limit is refused from its length alone, a message over it from its fragments (1009)")
    func tooBig() throws {
        let header: [UInt8] = [0x82, 127, 0, 0, 0, 0, 0x01, 0, 0, 1]
        #expect(throws: WebSocketProtocolError.tooBig("a frame of 16777217 bytes (at most 16777216)")) {
            try WebSocketFrameCodec.decode(header[...], masked: false, maximumPayload: 16 << 20)
        }
        var assembler = WebSocketMessageAssembler(maximumMessageSize: 10)
        _ = try assembler.receive(WebSocketFrame(opcode: .binary, payload: Array(repeating: 0, count: 6), fin: false))
        #expect(throws: WebSocketProtocolError.tooBig("a message over 10 bytes")) {
            try assembler.receive(WebSocketFrame(opcode: .continuation, payload: Array(repeating: 0, count: 5)))
        }
    }

    @Test("text that is not UTF-8 is invalid data (1007)")
    func invalidText() {
        var assembler = WebSocketMessageAssembler(maximumMessageSize: maximum)
        #expect(throws: WebSocketProtocolError.invalidData("a text message that is not UTF-8")) {
            try assembler.receive(WebSocketFrame(opcode: .text, payload: [0x61, 0xFF, 0x62]))
        }
        #expect(throws: WebSocketProtocolError.invalidData("a text message that is not UTF-8")) {
            try assembler.receive(WebSocketFrame(opcode: .text, payload: [0xED, 0xA0, 0x80]))
        }
    }

    @Test("a close frame gives its code and reason, none when empty; a one-byte or reserved code is a protocol error")
    func closeFrames() throws {
        #expect(try WebSocketMessageAssembler.closeEvent(WebSocketFrame.close(code: 4114, reason: "bad frame").payload) == .close(code: 4114, reason: "bad frame"))
        #expect(try WebSocketMessageAssembler.closeEvent([]) == .close(code: nil, reason: ""))
        for payload: [UInt8] in [[0x03], [0x03, 0xED], [0x03, 0xE7], [0x0B, 0xB7]] {
            let error = #expect(throws: WebSocketProtocolError.self) { try WebSocketMessageAssembler.closeEvent(payload) }
            #expect(error?.code == 1002)
        }
        #expect(throws: WebSocketProtocolError.invalidData("a close reason that is not UTF-8")) {
            try WebSocketMessageAssembler.closeEvent([0x03, 0xE8, 0xC3])
        }
    }

    @Test("a close frame's reason is cut on a character boundary to fit 125 bytes")
    func closeReasonLength() {
        let frame = WebSocketFrame.close(code: 1000, reason: String(repeating: "é", count: 100))
        #expect(frame.payload.count == 124)
        #expect(String(decoding: frame.payload.dropFirst(2), as: UTF8.self) == String(repeating: "é", count: 61))
    }
}
