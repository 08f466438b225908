import CirrusServices
import Logging
import NIOCore
import NIOPosix
import NIOSSL

/// The transport of one SMTP conversation: writes command lines, reads whole replies, upgrades to TLS in place.
///
/// Replies are framed by ``SMTPReplyDecoder``; a server that stays silent for the configured timeout fails the
/// pending read (``SMTPReplyTimeoutHandler``).
struct SMTPConnection {
    private let channel: any Channel
    private var replies: NIOAsyncChannelInboundStream<SMTPReply>.AsyncIterator
    private let writer: NIOAsyncChannelOutboundWriter<ByteBuffer>
    private let logger: Logger

    init(
        channel: any Channel, inbound: NIOAsyncChannelInboundStream<SMTPReply>,
        outbound: NIOAsyncChannelOutboundWriter<ByteBuffer>, logger: Logger
    ) {
        self.channel = channel
        replies = inbound.makeAsyncIterator()
        writer = outbound
        self.logger = logger
    }

    /// Opens a TCP connection to the configured server, with TLS from the first byte when `implicitTLS` is given.
    /// - Throws: the NIO error when the server cannot be reached within the timeout.
    static func open(
        _ configuration: SMTPConfiguration, implicitTLS: NIOSSLContext?, group: any EventLoopGroup
    ) async throws -> NIOAsyncChannel<SMTPReply, ByteBuffer> {
        let timeout = TimeAmount.milliseconds(Int64(configuration.timeout * 1000))
        let serverName = SMTPTLSOptions.serverName(for: configuration.host)
        return try await ClientBootstrap(group: group)
            .connectTimeout(timeout)
            .connect(host: configuration.host, port: configuration.port) { channel in
                channel.eventLoop.makeCompletedFuture {
                    let pipeline = channel.pipeline.syncOperations
                    if let implicitTLS {
                        try pipeline.addHandler(NIOSSLClientHandler(context: implicitTLS, serverHostname: serverName))
                    }
                    try pipeline.addHandler(ByteToMessageHandler(SMTPReplyDecoder()))
                    try pipeline.addHandler(IdleStateHandler(readTimeout: timeout))
                    try pipeline.addHandler(SMTPReplyTimeoutHandler(server: configuration.server, seconds: configuration.timeout))
                    return try NIOAsyncChannel<SMTPReply, ByteBuffer>(wrappingChannelSynchronously: channel)
                }
            }
    }

    /// Reads the next reply.
    /// - Throws: ``MessagingError`` when the server closes the connection or times out; NIO and TLS errors as such.
    mutating func reply() async throws -> SMTPReply {
        guard let reply = try await replies.next() else {
            throw MessagingError("SMTP: the server closed the connection")
        }
        logger.trace("SMTP < \(reply.text)")
        return reply
    }

    /// Sends one command line and reads its reply.
    /// - Parameters:
    ///   - line: the command, without its line break.
    ///   - logged: what the log shows instead of `line` (for lines that carry credentials).
    mutating func command(_ line: String, logged: String? = nil) async throws -> SMTPReply {
        logger.trace("SMTP > \(logged ?? line)")
        try await writer.write(ByteBuffer(string: line + "\r\n"))
        return try await reply()
    }

    /// Writes raw bytes (the message after DATA) without reading a reply.
    func write(_ bytes: ByteBuffer) async throws {
        try await writer.write(bytes)
    }

    /// Puts TLS under the conversation, after the server's `220` to STARTTLS. The handshake runs before the next
    /// command goes out; a failed handshake fails the next read.
    func startTLS(_ context: NIOSSLContext, serverName: String?) async throws {
        let channel = self.channel
        try await channel.eventLoop.submit {
            let handler = try NIOSSLClientHandler(context: context, serverHostname: serverName)
            try channel.pipeline.syncOperations.addHandler(handler, position: .first)
        }.get()
    }
}
