/// One WebSocket frame (RFC 6455, 5.2) with its payload unmasked.
struct WebSocketFrame: Sendable, Hashable {
    /// What a frame carries.
    enum Opcode: UInt8, Sendable {
        case continuation = 0x0
        case text = 0x1
        case binary = 0x2
        case close = 0x8
        case ping = 0x9
        case pong = 0xA

        /// Close, ping and pong: never fragmented, at most 125 bytes.
        var isControl: Bool { rawValue & 0x8 != 0 }
    }

    /// The largest payload of a control frame.
    static let maximumControlPayload = 125

    /// Whether this is the last fragment of its message.
    var fin: Bool
    var opcode: Opcode
    var payload: [UInt8]

    init(opcode: Opcode, payload: [UInt8] = [], fin: Bool = true) {
        self.fin = fin
        self.opcode = opcode
        self.payload = payload
    }

    /// A close frame: `code` big-endian, then `reason`'s UTF-8 cut on a character boundary to fit 125 bytes.
    static func close(code: UInt16, reason: String) -> WebSocketFrame {
        var payload = [UInt8(code >> 8), UInt8(code & 0xFF)]
        var room = maximumControlPayload - payload.count
        for character in reason {
            let bytes = Array(character.utf8)
            guard bytes.count <= room else { break }
            payload.append(contentsOf: bytes)
            room -= bytes.count
        }
        return WebSocketFrame(opcode: .close, payload: payload)
    }
}
