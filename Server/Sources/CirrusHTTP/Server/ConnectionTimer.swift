import HTTPTypes
import NIOCore
import NIOHTTPTypes

/// Follows the requests and responses of a connection for its ``ConnectionState``: a head starts the body timeout,
/// the request's end stops it and lets the ``RequestHeadGuard`` measure the next head, a response's end starts the
/// idle timeout. It also closes the connection when a graceful shutdown asks it to (at once when no request is on it,
/// after the response otherwise), and after a response that says `Connection: close` (a request refused before its body
/// was read): its output is closed and the rest of its input discarded, so the client reads the answer.
final class ConnectionTimer: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    private let state: ConnectionState
    private let headGuard: RequestHeadGuard
    /// The response being written says `Connection: close`.
    private var closesAfterResponse = false

    init(state: ConnectionState, headGuard: RequestHeadGuard) {
        self.state = state
        self.headGuard = headGuard
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head: state.headEnded()
        case .body: state.bodyRead()
        case .end:
            state.bodyEnded()
            headGuard.expectHead()
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        switch unwrapOutboundIn(data) {
        case .head(let head):
            if head.headerFields[.connection]?.lowercased() == "close" { closesAfterResponse = true }
        case .end:
            if closesAfterResponse {
                context.writeAndFlush(data, promise: promise)
                context.close(mode: .output, promise: nil)
                context.triggerUserOutboundEvent(LingeringClose(), promise: nil)
                return
            }
            if state.responseEnded() {
                context.writeAndFlush(data, promise: promise)
                context.close(promise: nil)
                return
            }
        case .body:
            break
        }
        context.write(data, promise: promise)
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        state.writabilityChanged(context.channel.isWritable)
        context.fireChannelWritabilityChanged()
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        guard event is ChannelShouldQuiesceEvent else {
            context.fireUserInboundEventTriggered(event)
            return
        }
        if state.quiesce() { context.close(promise: nil) }
    }
}
