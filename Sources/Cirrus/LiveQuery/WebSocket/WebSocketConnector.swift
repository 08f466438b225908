import Foundation

/// Opens WebSockets for the SDK, with the client each platform can use.
///
/// On Apple platforms every URL goes through URLSession's `URLSessionWebSocketTask`. On Linux, `ws://` URLs go
/// through ``POSIXWebSocketConnection``, the SDK's own RFC 6455 client over POSIX sockets, because
/// swift-corelibs-foundation's WebSocket task works only when the system's libcurl was built with WebSocket support
/// (libcurl 7.86 or later with WebSockets enabled; Debian's and Ubuntu's builds lack it, and the task fails with
/// "WebSockets not supported by libcurl"). `wss://` URLs still go through URLSession there, since the SDK carries no
/// TLS of its own: on such a system they fail with ``WebSocketError/handshakeFailed(_:)``.
enum WebSocketConnector {
    /// Opens a connection to `url`.
    /// - Parameters:
    ///   - protocols: the subprotocols to offer (`Sec-WebSocket-Protocol`), in order of preference; the server's
    ///     choice is the connection's ``WebSocketConnection/subprotocol``.
    ///   - headers: further request headers (not the handshake's own).
    ///   - timeout: how many seconds connecting and the handshake may take. (`TimeInterval` rather than `Duration`,
    ///     which needs iOS 16: the SDK's floor is iOS 15.)
    /// - Throws: ``WebSocketError``: a URL that is not `ws://` or `wss://`, an unreachable server, a refused handshake,
    ///   or ``WebSocketError/timedOut``; `CancellationError` when the task is cancelled.
    static func connect(
        to url: URL, protocols: [String] = [], headers: [String: String] = [:], timeout: TimeInterval = 30
    ) async throws -> any WebSocketConnection {
        switch url.scheme?.lowercased() {
        case "ws"?:
            #if canImport(Glibc)
            return try await POSIXWebSocketConnection.connect(to: url, protocols: protocols, headers: headers, timeout: timeout)
            #else
            return try await URLSessionWebSocketConnection.connect(to: url, protocols: protocols, headers: headers, timeout: timeout)
            #endif
        case "wss"?:
            return try await URLSessionWebSocketConnection.connect(to: url, protocols: protocols, headers: headers, timeout: timeout)
        default:
            throw WebSocketError.invalidRequest("\(url.absoluteString) is not a ws:// or wss:// URL")
        }
    }
}
