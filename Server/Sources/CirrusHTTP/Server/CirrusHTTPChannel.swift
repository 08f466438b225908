import CirrusModel
import HTTPTypes
package import HummingbirdCore
package import Logging
package import NIOCore
import NIOHTTP1
import NIOHTTPTypes
import NIOHTTPTypesHTTP1

/// The HTTP/1.1 connections of the Cirrus server: Hummingbird's HTTP/1.1 pipeline behind a ``RequestHeadGuard``
/// (head sizes), with a ``ConnectionTimer`` (idle, slow-head and stalled-body timeouts) and the server's
/// ``ConnectionLimiter``. Unlike Hummingbird's own channel, a connection it refuses is answered with the dialect's JSON
/// error and then closed, whether or not the client closes its side.
package struct CirrusHTTPChannel: ServerChildChannel, HTTPChannelHandler {
    package typealias Value = CirrusConnection

    package let responder: HTTPChannelHandler.Responder
    let settings: TransportSettings
    let limiter: ConnectionLimiter

    /// The most bytes of a body the server reads, after answering, to keep the connection; beyond it the connection
    /// is closed instead of reading the rest.
    static let drainLimit = 64 * 1024

    package init(responder: @escaping HTTPChannelHandler.Responder, settings: TransportSettings, limiter: ConnectionLimiter) {
        self.responder = responder
        self.settings = settings
        self.limiter = limiter
    }

    package func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<CirrusConnection> {
        channel.eventLoop.makeCompletedFuture {
            let id = limiter.admit(channel)
            let state = ConnectionState(settings: settings, limiter: limiter, connectionID: id)
            let headGuard = RequestHeadGuard(state: state)
            let pipeline = channel.pipeline.syncOperations
            try pipeline.addHandler(headGuard)
            // The guard measures heads first; the decoder's own limit catches a head it did not see (pipelined).
            var limits = NIOHTTPDecoderLimitConfiguration()
            limits.maxHeaderFieldSize = settings.maximumURLSize + settings.maximumHeaderSize
            limits.maxHeaderListSize = settings.maximumURLSize + settings.maximumHeaderSize
            try pipeline.configureHTTPServerPipeline(
                withPipeliningAssistance: false, withErrorHandling: false, withOutboundHeaderValidation: false,
                withEncoderConfiguration: .init(), withDecoderLimitConfiguration: limits
            )
            try pipeline.addHandler(HTTP1ToHTTPServerCodec(secure: false))
            try pipeline.addHandler(ConnectionTimer(state: state, headGuard: headGuard))
            let asyncChannel = try NIOAsyncChannel<HTTPRequestPart, HTTPResponsePart>(
                wrappingChannelSynchronously: channel, configuration: .init(isOutboundHalfClosureEnabled: true)
            )
            return CirrusConnection(asyncChannel: asyncChannel, admitted: id != nil)
        }
    }

    package func handle(value connection: CirrusConnection, logger: Logger) async {
        let channel = connection.asyncChannel.channel
        do {
            try await withTaskCancellationHandler {
                try await connection.asyncChannel.executeThenClose { inbound, outbound in
                    if connection.admitted {
                        var iterator = inbound.makeAsyncIterator()
                        do {
                            try await serve(&iterator, outbound: outbound, channel: channel)
                        } catch let refusal as TransportRefusal {
                            try await Self.write(refusal.error, dialect: refusal.dialect, to: outbound)
                        } catch let error as HTTPParserError {
                            try await Self.write(Self.apiError(for: error), dialect: nil, to: outbound)
                        }
                    } else {
                        logger.warning("connection refused: the server holds its maximum of \(limiter.limit) connections")
                        try await Self.write(APIError(.serverBusy, "The server is busy; try again later."), dialect: nil, to: outbound)
                    }
                    // Close the output, read what the client still sends for a moment, then close.
                    outbound.finish()
                    channel.triggerUserOutboundEvent(LingeringClose(), promise: nil)
                    try await channel.closeFuture.get()
                }
            } onCancel: {
                channel.close(mode: .input, promise: nil)
            }
        } catch {
            logger.trace("connection ended", metadata: ["error": "\(error)"])
        }
    }

    /// Answers the requests of one connection until it ends, is refused, or its client asked to close it.
    private func serve(
        _ iterator: inout NIOAsyncChannelInboundStream<HTTPRequestPart>.AsyncIterator,
        outbound: NIOAsyncChannelOutboundWriter<HTTPResponsePart>, channel: any Channel
    ) async throws {
        guard let first = try await iterator.next() else { return }
        guard case .head(var head) = first else { throw UnexpectedPart() }
        while true {
            let body = InboundBody(iterator: iterator)
            let request = Request(head: head, body: RequestBody(asyncSequence: body))
            try await responder(request, ResponseWriter(outbound: outbound), channel)
            if request.headers[.connection]?.lowercased() == "close" { return }
            guard let next = try await Self.nextHead(&iterator, after: body.progress) else { return }
            head = next
        }
    }

    /// The next request's head, read past what the responder left of the current body (at most ``drainLimit`` bytes
    /// of it); `nil` when the connection should close instead. What arrives instead of the head once the body has
    /// ended (a refusal of it, a timeout) is thrown, to be answered.
    private static func nextHead(
        _ iterator: inout NIOAsyncChannelInboundStream<HTTPRequestPart>.AsyncIterator, after progress: InboundBody.Progress
    ) async throws -> HTTPRequest? {
        var skipped = 0
        do {
            while let part = try await iterator.next() {
                switch part {
                case .head(let head): return head
                case .end: progress.ended = true
                case .body(let buffer):
                    skipped += buffer.readableBytes
                    if skipped > drainLimit { return nil }
                }
            }
            return nil
        } catch where !progress.ended {
            return nil
        }
    }

    /// The JSON error reply of a request the connection itself refuses, closing the connection.
    static func write(_ error: APIError, dialect: Dialect?, to outbound: NIOAsyncChannelOutboundWriter<HTTPResponsePart>) async throws {
        let wire = (dialect ?? .leancloud).wireError(for: error)
        let body = ByteBuffer(bytes: JSONWriter.bytes(wire.body))
        let head = HTTPResponse(status: .init(code: wire.status), headerFields: [
            .contentType: "application/json; charset=utf-8", .contentLength: String(body.readableBytes), .connection: "close",
            .accessControlAllowOrigin: "*",
        ])
        try await outbound.write(contentsOf: [.head(head), .body(body), .end(nil)])
    }

    /// The reason to answer a request the HTTP decoder could not read with.
    static func apiError(for error: HTTPParserError) -> APIError {
        error == .headerOverflow
            ? APIError(.headersTooLarge, "The request head is too large.")
            : APIError(.invalidParameter, "The request is not valid HTTP/1.1.")
    }
}

/// A connection of the Cirrus server: its channel, and whether the ``ConnectionLimiter`` admitted it (a refused one
/// is answered 503 and closed).
package struct CirrusConnection: ServerChildChannelValue {
    let asyncChannel: NIOAsyncChannel<HTTPRequestPart, HTTPResponsePart>
    let admitted: Bool

    package var channel: any Channel { asyncChannel.channel }
}

/// The body of the current request: the body parts of the connection's inbound stream, up to the request's end.
/// It shares the connection's iterator (copies of it read one stream), which reads on from where the body stopped.
struct InboundBody: AsyncSequence, @unchecked Sendable {
    typealias Element = ByteBuffer
    let iterator: NIOAsyncChannelInboundStream<HTTPRequestPart>.AsyncIterator
    /// Whether the body's end was read, by the responder or by the connection after it.
    let progress = Progress()

    /// Used by one task at a time: the responder, then the connection.
    final class Progress: @unchecked Sendable {
        var ended = false
    }

    struct AsyncIterator: AsyncIteratorProtocol {
        var iterator: NIOAsyncChannelInboundStream<HTTPRequestPart>.AsyncIterator
        let progress: Progress

        mutating func next() async throws -> ByteBuffer? {
            guard !progress.ended, let part = try await iterator.next() else { return nil }
            switch part {
            case .body(let buffer): return buffer
            case .end:
                progress.ended = true
                return nil
            case .head: throw UnexpectedPart()
            }
        }
    }

    func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(iterator: iterator, progress: progress)
    }
}

/// A request part where HTTP/1.1 allows none (a head inside a body).
struct UnexpectedPart: Error {}
