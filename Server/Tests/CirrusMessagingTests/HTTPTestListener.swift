import CirrusModel
import Foundation
import NIOCore
import NIOPosix

/// A tiny HTTP/1.1 server on 127.0.0.1 that records each request and answers with a fixed status and body.
final class HTTPTestListener: Sendable {
    /// One recorded request.
    struct Request: Sendable {
        var method: String
        var path: String
        /// Header values by lower-cased name.
        var headers: [String: String]
        var body: String
    }

    let port: Int
    private let channel: any Channel
    private let recorded: Recorded

    private init(port: Int, channel: any Channel, recorded: Recorded) {
        self.port = port
        self.channel = channel
        self.recorded = recorded
    }

    /// The requests received so far, oldest first.
    var requests: [Request] { recorded.all }

    /// Runs `body` against a listener that answers `status` with `responseBody`, then closes it.
    static func with<T>(status: Int, responseBody: String = "", _ body: (HTTPTestListener) async throws -> T) async throws -> T {
        let recorded = Recorded()
        let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(
                        Handler(status: status, responseBody: responseBody, recorded: recorded)
                    )
                }
            }
            .bind(host: "127.0.0.1", port: 0).get()
        let listener = HTTPTestListener(port: channel.localAddress?.port ?? 0, channel: channel, recorded: recorded)
        do {
            let result = try await body(listener)
            try? await channel.close()
            return result
        } catch {
            try? await channel.close()
            throw error
        }
    }

    final class Recorded: @unchecked Sendable {
        private let lock = Lock()
        private var requests: [Request] = []

        var all: [Request] { lock.withLock { requests } }

        func append(_ request: Request) {
            lock.withLock { requests.append(request) }
        }
    }

    /// Collects one request (headers, then `Content-Length` bytes), records it and answers.
    final class Handler: ChannelInboundHandler {
        typealias InboundIn = ByteBuffer
        typealias OutboundOut = ByteBuffer

        private let status: Int
        private let responseBody: String
        private let recorded: Recorded
        private var received: [UInt8] = []

        init(status: Int, responseBody: String, recorded: Recorded) {
            self.status = status
            self.responseBody = responseBody
            self.recorded = recorded
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            received += Array(buffer: unwrapInboundIn(data))
            guard let request = Self.parse(received) else { return }
            recorded.append(request)
            let reply = "HTTP/1.1 \(status) Status\r\nContent-Type: text/plain\r\nContent-Length: \(responseBody.utf8.count)\r\n"
                + "Connection: close\r\n\r\n\(responseBody)"
            let loopBound = NIOLoopBound(context, eventLoop: context.eventLoop)
            context.writeAndFlush(wrapOutboundOut(ByteBuffer(string: reply))).whenComplete { _ in
                loopBound.value.close(promise: nil)
            }
        }

        /// The request in `bytes`, or `nil` while it is incomplete.
        static func parse(_ bytes: [UInt8]) -> Request? {
            let text = String(decoding: bytes, as: UTF8.self)
            guard let end = text.range(of: "\r\n\r\n") else { return nil }
            let lines = text[..<end.lowerBound].components(separatedBy: "\r\n")
            var headers: [String: String] = [:]
            for line in lines.dropFirst() {
                guard let colon = line.firstIndex(of: ":") else { continue }
                headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            }
            let body = String(text[end.upperBound...])
            guard body.utf8.count >= Int(headers["content-length"] ?? "0") ?? 0 else { return nil }
            let requestLine = lines[0].split(separator: " ").map(String.init)
            return Request(method: requestLine.first ?? "", path: requestLine.dropFirst().first ?? "", headers: headers, body: body)
        }
    }
}
