import NIOCore
import NIOSSL

extension SMTPTestServer {
    /// Splits the bytes of a connection into lines (without CRLF or LF).
    struct LineDecoder: ByteToMessageDecoder {
        typealias InboundOut = String

        mutating func decode(context: ChannelHandlerContext, buffer: inout ByteBuffer) throws -> DecodingState {
            guard let newline = buffer.readableBytesView.firstIndex(of: UInt8(ascii: "\n")) else { return .needMoreData }
            var line = buffer.readString(length: newline - buffer.readerIndex) ?? ""
            buffer.moveReaderIndex(forwardBy: 1)
            if line.hasSuffix("\r") { line.removeLast() }
            context.fireChannelRead(wrapInboundOut(line))
            return .continue
        }

        mutating func decodeLast(context: ChannelHandlerContext, buffer: inout ByteBuffer, seenEOF: Bool) throws -> DecodingState {
            while try decode(context: context, buffer: &buffer) == .continue {}
            return .needMoreData
        }
    }

    /// Runs a ``Session`` on a connection: writes its replies, upgrades to TLS, hands messages to the inbox.
    final class Handler: ChannelInboundHandler {
        typealias InboundIn = String
        typealias OutboundOut = ByteBuffer

        private var session: Session
        private let tls: NIOSSLContext?
        private let inbox: Inbox

        init(options: Options, tls: NIOSSLContext?, inbox: Inbox) {
            session = Session(options: options)
            self.tls = tls
            self.inbox = inbox
        }

        func channelActive(context: ChannelHandlerContext) {
            perform(session.greeting, context: context)
            context.fireChannelActive()
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            perform(session.receive(unwrapInboundIn(data)), context: context)
        }

        func errorCaught(context: ChannelHandlerContext, error: any Error) {
            context.close(promise: nil)
        }

        private func perform(_ actions: [Session.Action], context: ChannelHandlerContext) {
            guard !session.options.staysSilent else { return }
            for action in actions {
                switch action {
                case .reply(let line):
                    context.writeAndFlush(wrapOutboundOut(ByteBuffer(string: line + "\r\n")), promise: nil)
                case .startTLS:
                    startTLS(context: context)
                case .deliver(let mail):
                    inbox.deliver(mail)
                case .close:
                    let loopBound = NIOLoopBound(context, eventLoop: context.eventLoop)
                    context.writeAndFlush(wrapOutboundOut(ByteBuffer())).whenComplete { _ in
                        loopBound.value.close(promise: nil)
                    }
                }
            }
        }

        /// Puts TLS under the pipeline; the `220` before it has already been flushed in plain text.
        private func startTLS(context: ChannelHandlerContext) {
            guard let tls else { return }
            do {
                try context.pipeline.syncOperations.addHandler(NIOSSLServerHandler(context: tls), position: .first)
            } catch {
                context.close(promise: nil)
            }
        }
    }
}
