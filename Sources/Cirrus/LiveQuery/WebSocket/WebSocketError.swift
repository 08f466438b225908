/// Why a WebSocket could not be opened, or why it ended.
enum WebSocketError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The URL, a subprotocol or a header is not one the client can send (scheme, host, characters that would break
    /// the request).
    case invalidRequest(String)
    /// The server could not be reached: name resolution or the TCP connection failed.
    case unreachable(String)
    /// The server was reached but did not accept the WebSocket upgrade (its status, a wrong `Sec-WebSocket-Accept`,
    /// a subprotocol that was not offered, a head too large).
    case handshakeFailed(String)
    /// The connection was not open within the timeout.
    case timedOut
    /// The connection ended: the close code and reason of the server's close frame (or of the protocol error, or of
    /// ``WebSocketConnection/close(code:reason:)``); no code when the connection broke or the close frame had none.
    case closed(code: UInt16?, reason: String)

    var description: String {
        switch self {
        case .invalidRequest(let detail): "invalid WebSocket request: \(detail)"
        case .unreachable(let detail): "the WebSocket server is unreachable: \(detail)"
        case .handshakeFailed(let detail): "the WebSocket handshake failed: \(detail)"
        case .timedOut: "the WebSocket connection was not open within the timeout"
        case .closed(let code?, let reason): "the WebSocket closed with \(code)\(reason.isEmpty ? "" : ": \(reason)")"
        case .closed(nil, let reason): "the WebSocket closed\(reason.isEmpty ? "" : ": \(reason)")"
        }
    }
}
