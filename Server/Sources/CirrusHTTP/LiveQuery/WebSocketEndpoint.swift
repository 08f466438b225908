package import NIOCore
package import NIOHTTP1
package import NIOWebSocket

/// A WebSocket the server's HTTP/1.1 connections upgrade to (LiveQuery's): which requests it takes, and the session it
/// runs on the upgraded connection.
package struct WebSocketEndpoint: Sendable {
    /// The headers to answer the upgrade with (the chosen subprotocol), or `nil` to leave the request to HTTP.
    package let accept: @Sendable (HTTPRequestHead) -> HTTPHeaders?
    /// Serves the upgraded connection until it ends.
    package let serve: @Sendable (NIOAsyncChannel<WebSocketFrame, WebSocketFrame>, HTTPRequestHead) async -> Void
    /// The largest frame (or message of fragments) a client may send.
    package let maximumFrameSize: Int

    package init(
        maximumFrameSize: Int, accept: @escaping @Sendable (HTTPRequestHead) -> HTTPHeaders?,
        serve: @escaping @Sendable (NIOAsyncChannel<WebSocketFrame, WebSocketFrame>, HTTPRequestHead) async -> Void
    ) {
        self.maximumFrameSize = maximumFrameSize
        self.accept = accept
        self.serve = serve
    }
}

extension WebSocketEndpoint {
    /// The endpoints of one listener: a request goes to the first that takes it.
    package static func first(of endpoints: [WebSocketEndpoint]) -> WebSocketEndpoint {
        WebSocketEndpoint(
            maximumFrameSize: endpoints.map(\.maximumFrameSize).max() ?? 64 * 1024,
            accept: { head in endpoints.lazy.compactMap { $0.accept(head) }.first },
            serve: { socket, head in await endpoints.first(where: { $0.accept(head) != nil })?.serve(socket, head) }
        )
    }
}

extension HTTPRequestHead {
    /// The request's path, without its query.
    var path: String {
        String(uri.prefix { $0 != "?" })
    }
}
