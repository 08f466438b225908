import Foundation

/// An open WebSocket (RFC 6455) as the SDK uses it: whole messages in and out, pings answered underneath.
///
/// ``WebSocketConnector/connect(to:protocols:headers:timeout:)`` opens one. Every method may be called from any task;
/// sends are written one after another, and concurrent receives get the messages in arrival order, first come first
/// served.
protocol WebSocketConnection: Sendable {
    /// The subprotocol the server chose from those offered (`Sec-WebSocket-Protocol`), `nil` when it chose none.
    var subprotocol: String? { get }

    /// Sends `message` as one frame.
    /// - Throws: ``WebSocketError/closed(code:reason:)`` when the connection is closed or broke.
    func send(_ message: WebSocketMessage) async throws

    /// The next text or binary message from the server; pings are answered and pongs skipped on the way.
    /// - Throws: ``WebSocketError/closed(code:reason:)`` once the server closed the connection (its code and reason),
    ///   the connection broke (no code), or it was closed with ``close(code:reason:)`` (that code and reason);
    ///   `CancellationError` when the waiting task is cancelled.
    func receive() async throws -> WebSocketMessage

    /// Sends a close frame with `code` and `reason` where it can, then shuts the connection. Receives waiting and
    /// later throw ``WebSocketError/closed(code:reason:)``. Closing a closed connection does nothing.
    func close(code: UInt16, reason: String)
}

/// A WebSocket message: a text frame's UTF-8 or a binary frame's bytes, reassembled from its fragments.
enum WebSocketMessage: Sendable, Hashable {
    case text(String)
    case binary(Data)
}
