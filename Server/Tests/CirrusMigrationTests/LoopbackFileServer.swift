import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1
import NIOPosix

/// A small HTTP/1.1 server on 127.0.0.1 for download tests, counting the requests it gets:
/// `/files/<name>` answers 200 with `content of <name>`; `/redirect/<name>` 302 to `/files/<name>`; `/loop` redirects
/// to itself; `/big` answers `bigSize` bytes with a Content-Length, `/big-chunked` the same chunked; `/silent` never
/// answers; anything else 404.
final class LoopbackFileServer: Sendable {
    static let bigSize = 4096

    let port: Int
    private let channel: any Channel
    private let counter: NIOLockedValueBox<Int>

    private init(port: Int, channel: any Channel, counter: NIOLockedValueBox<Int>) {
        self.port = port
        self.channel = channel
        self.counter = counter
    }

    /// The number of requests received so far.
    var requestCount: Int { counter.withLockedValue { $0 } }

    func url(_ path: String) -> String { "http://127.0.0.1:\(port)\(path)" }

    /// Runs `body` against a new server, then closes it.
    static func with<T>(_ body: (LoopbackFileServer) async throws -> T) async throws -> T {
        let counter = NIOLockedValueBox(0)
        let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.configureHTTPServerPipeline()
                    try channel.pipeline.syncOperations.addHandler(Handler(counter: counter))
                }
            }
            .bind(host: "127.0.0.1", port: 0).get()
        let server = LoopbackFileServer(port: channel.localAddress?.port ?? 0, channel: channel, counter: counter)
        do {
            let result = try await body(server)
            try? await channel.close()
            return result
        } catch {
            try? await channel.close()
            throw error
        }
    }

    final class Handler: ChannelInboundHandler, Sendable {
        typealias InboundIn = HTTPServerRequestPart
        typealias OutboundOut = HTTPServerResponsePart

        let counter: NIOLockedValueBox<Int>
        init(counter: NIOLockedValueBox<Int>) { self.counter = counter }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            guard case .head(let head) = unwrapInboundIn(data) else { return }
            counter.withLockedValue { $0 += 1 }
            let path = head.uri
            if path.hasPrefix("/files/") {
                respond(context, .ok, body: Array("content of \(path.dropFirst(7))".utf8))
            } else if path.hasPrefix("/redirect/") {
                respond(context, .found, headers: [("Location", "/files/" + path.dropFirst(10))])
            } else if path == "/loop" {
                respond(context, .found, headers: [("Location", "/loop")])
            } else if path == "/big" {
                respond(context, .ok, body: Array(repeating: 0x61, count: LoopbackFileServer.bigSize))
            } else if path == "/big-chunked" {
                respond(context, .ok, body: Array(repeating: 0x62, count: LoopbackFileServer.bigSize), chunked: true)
            } else if path == "/silent" {
                return
            } else {
                respond(context, .notFound, body: Array("no such file".utf8))
            }
        }

        private func respond(
            _ context: ChannelHandlerContext, _ status: HTTPResponseStatus, headers: [(String, String)] = [], body: [UInt8] = [],
            chunked: Bool = false
        ) {
            var fields = HTTPHeaders(headers)
            fields.add(name: "Connection", value: "close")
            if chunked { fields.add(name: "Transfer-Encoding", value: "chunked") } else { fields.add(name: "Content-Length", value: "\(body.count)") }
            context.write(wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: status, headers: fields))), promise: nil)
            if chunked {
                var offset = 0
                while offset < body.count {
                    let end = min(offset + 512, body.count)
                    context.write(wrapOutboundOut(.body(.byteBuffer(ByteBuffer(bytes: body[offset..<end])))), promise: nil)
                    offset = end
                }
            } else if !body.isEmpty {
                context.write(wrapOutboundOut(.body(.byteBuffer(ByteBuffer(bytes: body)))), promise: nil)
            }
            let loopBound = NIOLoopBound(context, eventLoop: context.eventLoop)
            context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in loopBound.value.close(promise: nil) }
        }
    }
}
