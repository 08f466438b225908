/// A frame or message that breaks RFC 6455, or that the client will not take: the connection is closed with
/// ``code`` (section 7.4.1) and ``reason``.
struct WebSocketProtocolError: Error, Sendable, Hashable {
    let code: UInt16
    let reason: String

    /// 1002: a frame the protocol forbids (reserved bits, a masked server frame, a fragmented control frame, …).
    static func protocolError(_ reason: String) -> WebSocketProtocolError {
        WebSocketProtocolError(code: 1002, reason: reason)
    }

    /// 1007: text that is not UTF-8.
    static func invalidData(_ reason: String) -> WebSocketProtocolError {
        WebSocketProtocolError(code: 1007, reason: reason)
    }

    /// 1009: a frame or message larger than the client takes.
    static func tooBig(_ reason: String) -> WebSocketProtocolError {
        WebSocketProtocolError(code: 1009, reason: reason)
    }
}
