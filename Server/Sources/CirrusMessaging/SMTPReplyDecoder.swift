import CirrusServices
import NIOCore

/// Decodes bytes from the server into ``SMTPReply`` values, one per complete (possibly multi-line) reply.
struct SMTPReplyDecoder: ByteToMessageDecoder {
    typealias InboundOut = SMTPReply

    /// The longest line accepted; RFC 5321 allows 512 octets, servers stay far below this.
    static let maximumLineLength = 16_384

    private var parser = SMTPReplyParser()

    mutating func decode(context: ChannelHandlerContext, buffer: inout ByteBuffer) throws -> DecodingState {
        guard let newline = buffer.readableBytesView.firstIndex(of: UInt8(ascii: "\n")) else {
            guard buffer.readableBytes <= Self.maximumLineLength else {
                throw MessagingError("SMTP: reply line longer than \(Self.maximumLineLength) bytes")
            }
            return .needMoreData
        }
        let length = newline - buffer.readerIndex
        var line = buffer.readString(length: length) ?? ""
        buffer.moveReaderIndex(forwardBy: 1)
        if line.hasSuffix("\r") { line.removeLast() }
        if let reply = try parser.add(line: line) {
            context.fireChannelRead(wrapInboundOut(reply))
        }
        return .continue
    }

    mutating func decodeLast(context: ChannelHandlerContext, buffer: inout ByteBuffer, seenEOF: Bool) throws -> DecodingState {
        while try decode(context: context, buffer: &buffer) == .continue {}
        return .needMoreData
    }
}
