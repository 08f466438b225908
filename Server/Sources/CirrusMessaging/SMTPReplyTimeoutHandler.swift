import CirrusServices
import NIOCore

/// Turns the read-idle event of an `IdleStateHandler` placed before it into an error and closes the channel,
/// so that a server that stops answering fails the send instead of hanging it.
final class SMTPReplyTimeoutHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = SMTPReply
    typealias InboundOut = SMTPReply

    private let message: String

    /// - Parameters:
    ///   - server: `host:port`, quoted in the error.
    ///   - seconds: the configured timeout, quoted in the error.
    init(server: String, seconds: Double) {
        message = "SMTP \(server): no reply from the server within \(seconds) seconds"
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        guard let idle = event as? IdleStateHandler.IdleStateEvent, idle == .read else {
            context.fireUserInboundEventTriggered(event)
            return
        }
        context.fireErrorCaught(MessagingError(message))
        context.close(promise: nil)
    }
}
