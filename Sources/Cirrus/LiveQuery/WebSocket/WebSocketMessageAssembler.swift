import Foundation

/// What a client makes of the server's frames: messages reassembled from their fragments, pings, pongs and the close,
/// with the checks RFC 6455 asks of the sequence (a continuation only inside a fragmented message, no new message
/// inside one, text in UTF-8, close codes and reasons that are valid).
struct WebSocketMessageAssembler {
    /// What a frame amounts to once it is read.
    enum Event: Sendable, Hashable {
        /// A whole text or binary message.
        case message(WebSocketMessage)
        /// A ping, to answer with a pong of the same payload.
        case ping([UInt8])
        case pong
        /// The server's close frame: its code (none when the frame had no payload) and reason.
        case close(code: UInt16?, reason: String)
    }

    /// The largest message taken, its fragments added up.
    let maximumMessageSize: Int
    /// The opcode and bytes of the fragmented message in progress.
    private var partial: (opcode: WebSocketFrame.Opcode, bytes: [UInt8])?

    init(maximumMessageSize: Int) {
        self.maximumMessageSize = maximumMessageSize
    }

    /// The event of `frame`: `nil` for a fragment that does not end its message.
    /// - Throws: ``WebSocketProtocolError``: a continuation outside a message or a new message inside one, a close
    ///   frame that is invalid (1002); text or a close reason that is not UTF-8 (1007); a message too large (1009).
    mutating func receive(_ frame: WebSocketFrame) throws -> Event? {
        switch frame.opcode {
        case .ping: return .ping(frame.payload)
        case .pong: return .pong
        case .close: return try Self.closeEvent(frame.payload)
        case .text, .binary:
            guard partial == nil else { throw WebSocketProtocolError.protocolError("a new message inside a fragmented one") }
            partial = (frame.opcode, [])
            return try append(frame)
        case .continuation:
            guard partial != nil else { throw WebSocketProtocolError.protocolError("a continuation frame outside a message") }
            return try append(frame)
        }
    }

    /// Adds a data frame's payload to the message in progress, and returns the message when the frame ends it.
    private mutating func append(_ frame: WebSocketFrame) throws -> Event? {
        guard var message = partial else { return nil }
        // Released first, so that the bytes are appended to in place.
        partial = nil
        guard message.bytes.count + frame.payload.count <= maximumMessageSize else {
            throw WebSocketProtocolError.tooBig("a message over \(maximumMessageSize) bytes")
        }
        message.bytes.append(contentsOf: frame.payload)
        guard frame.fin else {
            partial = message
            return nil
        }
        if message.opcode == .binary { return .message(.binary(Data(message.bytes))) }
        guard let text = Self.utf8(message.bytes) else { throw WebSocketProtocolError.invalidData("a text message that is not UTF-8") }
        return .message(.text(text))
    }

    /// The code and reason of a close frame's payload: empty, or a valid code and a UTF-8 reason.
    static func closeEvent(_ payload: [UInt8]) throws -> Event {
        guard !payload.isEmpty else { return .close(code: nil, reason: "") }
        guard payload.count >= 2 else { throw WebSocketProtocolError.protocolError("a close frame of one byte") }
        let code = UInt16(payload[0]) << 8 | UInt16(payload[1])
        guard isValidCloseCode(code) else { throw WebSocketProtocolError.protocolError("the close code \(code), which may not be sent") }
        guard let reason = utf8(payload[2...]) else { throw WebSocketProtocolError.invalidData("a close reason that is not UTF-8") }
        return .close(code: code, reason: reason)
    }

    /// The codes an endpoint may send (RFC 6455, 7.4; IANA's registry): 1000–1003, 1007–1014, and 3000–4999 for
    /// libraries and applications. 1005, 1006 and 1015 only ever stand for a missing code or a broken connection.
    static func isValidCloseCode(_ code: UInt16) -> Bool {
        (1000...1003).contains(code) || (1007...1014).contains(code) || (3000...4999).contains(code)
    }

    /// `bytes` as a string, or `nil` when they are not valid UTF-8.
    static func utf8(_ bytes: some Collection<UInt8>) -> String? {
        let invalid = transcode(bytes.makeIterator(), from: UTF8.self, to: UTF8.self, stoppingOnError: true) { _ in }
        return invalid ? nil : String(decoding: bytes, as: UTF8.self)
    }
}
