package import CirrusLiveQuery
package import Logging
import NIOCore
import NIOHTTP1

/// LeanCloud's realtime socket as the server's WebSocket endpoint: upgrades at ``LiveQuerySettings/path`` with a
/// subprotocol the server speaks (echoed back, as browsers require), and serves each socket with an ``RTMSession``.
package enum RTMEndpoint {
    package static func webSocket(liveQuery: LiveQueryService, appId: String, settings: LiveQuerySettings, logger: Logger) -> WebSocketEndpoint {
        WebSocketEndpoint(
            maximumFrameSize: settings.maximumFrameSize,
            accept: { head in
                guard settings.enabled, head.path == settings.path, let (name, _) = RTMFormat.negotiate(head) else { return nil }
                var headers = HTTPHeaders()
                if let name { headers.add(name: "Sec-WebSocket-Protocol", value: name) }
                return headers
            },
            serve: { socket, head in
                guard let (_, format) = RTMFormat.negotiate(head) else { return }
                let session = RTMSession(
                    format: format, appId: appId, liveQuery: liveQuery, settings: settings, channel: socket.channel, logger: logger
                )
                await session.serve(socket)
            }
        )
    }
}
