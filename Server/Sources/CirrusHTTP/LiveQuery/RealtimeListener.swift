import CirrusModel
package import Logging
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOWebSocket

/// The listener of LiveQuery's WebSocket, on a port of its own: each connection's first request is a WebSocket
/// upgrade to the ``WebSocketEndpoint`` (anything else is answered 426 and closed). The API's port keeps its own
/// HTTP/1.1 channel (``CirrusHTTPChannel``: head limits, timeouts, the connection cap) untouched.
package final class RealtimeListener: Sendable {
    private let channel: any Channel
    /// The port it listens on (the one asked for, or the one the system chose for port 0).
    package let port: Int

    private init(channel: any Channel, port: Int) {
        self.channel = channel
        self.port = port
    }

    /// Starts listening on `host:port` (0: a free port). Its connections count against `limiter`, the API's: one budget
    /// of connections (and file descriptors) for the process; a socket not yet upgraded may be closed to make room, an
    /// upgraded one is not.
    /// - Throws: when the address cannot be bound.
    package static func start(
        host: String, port: Int, endpoint: WebSocketEndpoint, limiter: ConnectionLimiter, logger: Logger
    ) async throws -> RealtimeListener {
        let bootstrap = ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.backlog, value: 256)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelOption(.socketOption(.tcp_nodelay), value: 1)
            // Clients send small frames (a login, pings); the read buffer a socket keeps after its last read starts at
            // 256 bytes instead of 2 KB (it grows for larger reads), which 10 000 idle sockets feel.
            .childChannelOption(.recvAllocator, value: AdaptiveRecvByteBufferAllocator(minimum: 64, initial: 256, maximum: 64 * 1024))
        let server = try await bootstrap.bind(host: host, port: port) { channel in
            channel.eventLoop.makeCompletedFuture {
                guard let id = limiter.admit(channel) else {
                    logger.warning("LiveQuery connection refused: the server holds its maximum of \(limiter.limit) connections")
                    channel.close(promise: nil)
                    return channel.eventLoop.makeSucceededFuture(Negotiated.refused)
                }
                channel.closeFuture.whenComplete { _ in limiter.remove(id) }
                return try Self.configure(channel, endpoint: endpoint) { limiter.setIdle(id, false) }
            }
        }
        let bound = server.channel.localAddress?.port ?? port
        let listener = RealtimeListener(channel: server.channel, port: bound)
        Task {
            try? await withThrowingDiscardingTaskGroup { group in
                try await server.executeThenClose { connections in
                    for try await connection in connections {
                        group.addTask {
                            guard let negotiated = try? await connection.get() else { return }
                            if case .webSocket(let socket, let head) = negotiated { await endpoint.serve(socket, head) }
                        }
                    }
                }
            }
        }
        logger.info("LiveQuery's WebSocket listens", metadata: ["address": "\(host):\(bound)"])
        return listener
    }

    /// Stops accepting connections (the open sockets end with the process).
    package func stop() async {
        try? await channel.close()
    }

    enum Negotiated: Sendable {
        case webSocket(NIOAsyncChannel<WebSocketFrame, WebSocketFrame>, HTTPRequestHead)
        case refused
    }

    private static func configure(
        _ channel: any Channel, endpoint: WebSocketEndpoint, upgraded: @escaping @Sendable () -> Void
    ) throws -> EventLoopFuture<Negotiated> {
        let upgrader = NIOTypedWebSocketServerUpgrader<Negotiated>(
            maxFrameSize: endpoint.maximumFrameSize,
            shouldUpgrade: { channel, head in channel.eventLoop.makeSucceededFuture(endpoint.accept(head)) },
            upgradePipelineHandler: { channel, head in
                channel.eventLoop.makeCompletedFuture {
                    upgraded()
                    // A socket's own session times it from now on (the login timeout; then the clients' pings).
                    channel.pipeline.syncOperations.removeHandler(name: "idle", promise: nil)
                    try channel.pipeline.syncOperations.addHandler(NIOWebSocketFrameAggregator(
                        minNonFinalFragmentSize: 0, maxAccumulatedFrameCount: 64, maxAccumulatedFrameSize: endpoint.maximumFrameSize
                    ))
                    return Negotiated.webSocket(try NIOAsyncChannel(wrappingChannelSynchronously: channel), head)
                }
            }
        )
        var limits = NIOHTTPDecoderLimitConfiguration()
        limits.maxHeaderFieldSize = 16 * 1024
        limits.maxHeaderListSize = 16 * 1024
        var configuration = NIOUpgradableHTTPServerPipelineConfiguration(
            upgradeConfiguration: NIOTypedHTTPServerUpgradeConfiguration<Negotiated>(
                upgraders: [upgrader],
                notUpgradingCompletionHandler: { channel in
                    channel.eventLoop.makeCompletedFuture {
                        try channel.pipeline.syncOperations.addHandler(UpgradeRequired())
                        return Negotiated.refused
                    }
                }
            )
        )
        configuration.decoderConfiguration = limits
        // A connection that sends no upgrade within 30 s, or one the HTTP decoder refuses, is closed.
        try channel.pipeline.syncOperations.addHandler(IdleStateHandler(allTimeout: .seconds(30)), name: "idle")
        let negotiation = try channel.pipeline.syncOperations.configureUpgradableHTTPServerPipeline(configuration: configuration)
        try channel.pipeline.syncOperations.addHandler(CloseOnFailure())
        return negotiation
    }
}

/// Answers a request that is no WebSocket upgrade: Socket.IO 0.9's handshake for Bmob's realtime
/// (``BmobRealtimeEndpoint/handshake(path:)``), else 426; then closes the connection.
final class UpgradeRequired: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    private var path = ""

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head): path = head.path
        case .body: break
        case .end:
            if let handshake = BmobRealtimeEndpoint.handshake(path: path) {
                reply(context, status: .ok, type: "text/plain; charset=utf-8", body: Array(handshake.utf8))
            } else {
                let error = APIError(.notFound, "This port serves LiveQuery's WebSockets only: connect with a WebSocket upgrade to their path.")
                reply(context, status: .upgradeRequired, type: "application/json; charset=utf-8", body: JSONWriter.bytes(Dialect.leancloud.wireError(for: error).body))
            }
        }
    }

    private func reply(_ context: ChannelHandlerContext, status: HTTPResponseStatus, type: String, body: [UInt8]) {
        var headers = HTTPHeaders()
        headers.add(name: "Content-Type", value: type)
        headers.add(name: "Content-Length", value: String(body.count))
        headers.add(name: "Access-Control-Allow-Origin", value: "*")
        headers.add(name: "Connection", value: "close")
        context.write(wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: status, headers: headers))), promise: nil)
        context.write(wrapOutboundOut(.body(.byteBuffer(ByteBuffer(bytes: body)))), promise: nil)
        let promise = context.eventLoop.makePromise(of: Void.self)
        context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: promise)
        let channel = context.channel
        promise.futureResult.whenComplete { _ in channel.close(promise: nil) }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.close(promise: nil)
    }
}

/// Closes the connection on an error no later handler took, or when it stayed idle before its upgrade.
final class CloseOnFailure: ChannelInboundHandler {
    typealias InboundIn = NIOAny

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.close(promise: nil)
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if event is IdleStateHandler.IdleStateEvent {
            context.close(promise: nil)
        } else {
            context.fireUserInboundEventTriggered(event)
        }
    }
}
