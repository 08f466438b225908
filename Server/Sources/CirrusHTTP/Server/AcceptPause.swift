package import HummingbirdCore
package import Logging
package import NIOCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Stops a listening socket from spinning when the process is out of file descriptors.
///
/// When `accept` fails with `EMFILE`, NIO leaves its read pending, so the listening socket stays registered for
/// readiness and the event loop calls `accept` again at once, forever, at 100 % of a core (NIO's own
/// `AcceptBackoffHandler` only delays the next read, which never comes). This handler, first in the listening
/// channel's pipeline, turns reading off for ``pause`` (which unregisters the socket), holds back reads meanwhile,
/// and then reads again. Meanwhile it closes the longest-idle connections, so that the clients waiting in the backlog
/// get descriptors.
final class AcceptPause: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = Any
    typealias OutboundIn = Any

    static let pause: TimeAmount = .milliseconds(100)
    /// Idle connections closed on each failed `accept`.
    static let closedPerPause = 16
    private let logger: Logger
    private let limiter: ConnectionLimiter
    private var resume: Scheduled<Void>?
    private var heldRead = false
    private var lastWarning: NIODeadline?

    init(logger: Logger, limiter: ConnectionLimiter) {
        self.logger = logger
        self.limiter = limiter
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        if let error = error as? IOError, [EMFILE, ENFILE, ENOBUFS, ENOMEM].contains(error.errnoCode), resume == nil {
            let closed = limiter.closeIdle(Self.closedPerPause)
            if lastWarning.map({ .now() - $0 > .seconds(10) }) ?? true {
                lastWarning = .now()
                logger.warning("accepting connections paused: out of file descriptors", metadata: [
                    "error": "\(error)", "idleConnectionsClosed": "\(closed)",
                ])
            }
            context.channel.setOption(ChannelOptions.autoRead, value: false).whenFailure { _ in }
            let loopBound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
            resume = context.eventLoop.scheduleTask(in: Self.pause) {
                let (handler, context) = loopBound.value
                handler.resume = nil
                context.channel.setOption(ChannelOptions.autoRead, value: true).whenFailure { _ in }
                if handler.heldRead {
                    handler.heldRead = false
                    context.read()
                }
            }
        }
        context.fireErrorCaught(error)
    }

    func read(context: ChannelHandlerContext) {
        guard resume == nil else {
            heldRead = true
            return
        }
        context.read()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        resume?.cancel()
        resume = nil
    }
}

extension CirrusHTTPChannel {
    /// How the application builds its connections: with these settings, under `limiter`.
    package static func server(settings: TransportSettings, limiter: ConnectionLimiter) -> HTTPServerBuilder {
        HTTPServerBuilder { CirrusHTTPChannel(responder: $0, settings: settings, limiter: limiter) }
    }

    /// Prepares the listening channel once the server listens: ``AcceptPause`` goes first in its pipeline.
    package static func listening(_ channel: any Channel, limiter: ConnectionLimiter, logger: Logger) async {
        do {
            try await channel.eventLoop.submit {
                try channel.pipeline.syncOperations.addHandler(AcceptPause(logger: logger, limiter: limiter), position: .first)
            }.get()
        } catch {
            logger.warning("the accept pause could not be installed", metadata: ["error": "\(error)"])
        }
    }
}
