/// The bytes of WebSocket frames (RFC 6455, 5.2), without I/O: encoding with or without a mask, and decoding the frame
/// at the start of a buffer with the checks a client makes of the server's frames.
enum WebSocketFrameCodec {
    /// The frame's bytes: masked with the four bytes of `mask` (a client's frame), or unmasked when it is `nil`.
    /// The length takes the shortest of the three forms: 7 bits, 16 bits after 126, 64 bits after 127.
    static func encode(_ frame: WebSocketFrame, mask: [UInt8]?) -> [UInt8] {
        precondition(mask.map { $0.count == 4 } ?? true, "a WebSocket mask has four bytes")
        let count = frame.payload.count
        var bytes: [UInt8] = [(frame.fin ? 0x80 : 0) | frame.opcode.rawValue]
        bytes.reserveCapacity(count + 14)
        let maskBit: UInt8 = mask == nil ? 0 : 0x80
        if count <= 125 {
            bytes.append(maskBit | UInt8(count))
        } else if count <= Int(UInt16.max) {
            bytes.append(maskBit | 126)
            bytes.append(contentsOf: bigEndianBytes(UInt64(count), width: 2))
        } else {
            bytes.append(maskBit | 127)
            bytes.append(contentsOf: bigEndianBytes(UInt64(count), width: 8))
        }
        guard let mask else { return bytes + frame.payload }
        bytes.append(contentsOf: mask)
        bytes.append(contentsOf: masked(frame.payload, with: mask))
        return bytes
    }

    /// The frame at the start of `bytes` and how many bytes it took, or `nil` while its bytes are incomplete.
    /// - Parameters:
    ///   - masked: whether frames must be masked (a server reading a client) or must not be (a client reading a server).
    ///   - maximumPayload: the largest payload taken; a larger one is refused as soon as its length is read.
    /// - Throws: ``WebSocketProtocolError``: reserved bits set, an unknown opcode, the wrong masking, a fragmented or
    ///   too long control frame, a 64-bit length with its top bit set (1002), a payload over the maximum (1009).
    static func decode(_ bytes: ArraySlice<UInt8>, masked: Bool, maximumPayload: Int) throws -> (frame: WebSocketFrame, length: Int)? {
        guard bytes.count >= 2 else { return nil }
        let first = bytes[bytes.startIndex], second = bytes[bytes.startIndex + 1]
        let opcode = try opcode(of: first)
        guard (second & 0x80 != 0) == masked else {
            throw WebSocketProtocolError.protocolError(masked ? "an unmasked client frame" : "a masked server frame")
        }
        let fin = first & 0x80 != 0
        guard let (payloadLength, lengthEnd) = try payloadLength(bytes, short: second & 0x7F) else { return nil }
        try checkControl(opcode, fin: fin, length: payloadLength)
        guard payloadLength <= UInt64(maximumPayload) else {
            throw WebSocketProtocolError.tooBig("a frame of \(payloadLength) bytes (at most \(maximumPayload))")
        }
        let payloadStart = lengthEnd + (masked ? 4 : 0)
        let end = payloadStart + Int(payloadLength)
        guard bytes.count >= end else { return nil }
        var payload = Array(bytes[(bytes.startIndex + payloadStart)..<(bytes.startIndex + end)])
        if masked {
            payload = self.masked(payload, with: Array(bytes[(bytes.startIndex + lengthEnd)..<(bytes.startIndex + payloadStart)]))
        }
        return (WebSocketFrame(opcode: opcode, payload: payload, fin: fin), end)
    }

    /// `payload` XOR-ed with the repeated `mask` (masking and unmasking are the same).
    static func masked(_ payload: [UInt8], with mask: [UInt8]) -> [UInt8] {
        var result = payload
        for index in result.indices {
            result[index] ^= mask[index & 3]
        }
        return result
    }

    /// The opcode of a frame's first byte, whose reserved bits must be clear (no extension was negotiated).
    private static func opcode(of first: UInt8) throws -> WebSocketFrame.Opcode {
        guard first & 0x70 == 0 else { throw WebSocketProtocolError.protocolError("a frame with reserved bits set") }
        guard let opcode = WebSocketFrame.Opcode(rawValue: first & 0x0F) else {
            throw WebSocketProtocolError.protocolError("a frame with the unknown opcode \(first & 0x0F)")
        }
        return opcode
    }

    /// The payload length and the offset where the length ends, or `nil` while the extended length is incomplete.
    private static func payloadLength(_ bytes: ArraySlice<UInt8>, short: UInt8) throws -> (UInt64, Int)? {
        let width = short == 126 ? 2 : short == 127 ? 8 : 0
        guard width > 0 else { return (UInt64(short), 2) }
        guard bytes.count >= 2 + width else { return nil }
        let start = bytes.startIndex + 2
        let length = bytes[start..<(start + width)].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        guard length >> 63 == 0 else { throw WebSocketProtocolError.protocolError("a 64-bit frame length with its top bit set") }
        return (length, 2 + width)
    }

    /// A control frame is a single frame of at most 125 bytes.
    private static func checkControl(_ opcode: WebSocketFrame.Opcode, fin: Bool, length: UInt64) throws {
        guard opcode.isControl else { return }
        guard fin else { throw WebSocketProtocolError.protocolError("a fragmented control frame") }
        guard length <= UInt64(WebSocketFrame.maximumControlPayload) else {
            throw WebSocketProtocolError.protocolError("a control frame of \(length) bytes (at most 125)")
        }
    }

    /// `value`'s low `width` bytes, most significant first.
    private static func bigEndianBytes(_ value: UInt64, width: Int) -> [UInt8] {
        (0..<width).reversed().map { UInt8(truncatingIfNeeded: value >> (8 * UInt64($0))) }
    }
}
