package import CirrusServices
package import Logging
package import NIOCore
import NIOPosix
import NIOSSL

/// Sends mail through an SMTP server: plain, STARTTLS or implicit TLS, with AUTH PLAIN or LOGIN.
///
/// Each message opens its own connection (greeting, EHLO, STARTTLS, AUTH, MAIL/RCPT/DATA, QUIT), so there is no
/// connection state to keep between sends.
///
/// ```swift
/// let mail = SMTPClient(configuration: SMTPConfiguration(
///     host: "smtp.example.com", security: .startTLS,
///     credentials: .init(username: "noreply@example.com", password: password)
/// ))
/// try await mail.send(MailMessage(from: "noreply@example.com", to: ["ada@example.com"], subject: "Hi", text: "Hello"))
/// ```
package struct SMTPClient: MailSender {
    /// Where and how mail is delivered.
    package let configuration: SMTPConfiguration
    private let group: any EventLoopGroup
    private let logger: Logger
    /// The TLS context, made once (loading trust roots is not free); `nil` for ``SMTPConfiguration/Security/none``.
    private let tls: Result<NIOSSLContext?, MessagingError>

    /// Creates a client; nothing connects until ``send(_:)``.
    /// - Parameters:
    ///   - configuration: the server, security mode, credentials and timeouts.
    ///   - eventLoopGroup: the NIO event loops connections run on.
    ///   - logger: where the conversation is traced (credentials never appear).
    package init(
        configuration: SMTPConfiguration, eventLoopGroup: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton,
        logger: Logger = Logger(label: "cirrus.smtp")
    ) {
        self.configuration = configuration
        group = eventLoopGroup
        self.logger = logger
        tls = Result { () throws(MessagingError) -> NIOSSLContext? in
            configuration.security == .none ? nil : try configuration.tls.makeContext()
        }
    }

    /// Delivers `message` and returns once the server has accepted it for every recipient.
    /// - Throws: ``MessagingError`` with the server's reply, or the reason the server could not be reached.
    package func send(_ message: MailMessage) async throws {
        let envelope = try SMTPEnvelope(message)
        let data = MIMEMessage(message).rendered()
        do {
            try await deliver(envelope, data: data)
            logger.debug("SMTP: sent to \(envelope.recipients.count) recipient(s) via \(configuration.host)")
        } catch let error as MessagingError {
            throw error
        } catch let error as NIOSSLError {
            throw MessagingError("SMTP \(configuration.server): TLS failed: \(error)")
        } catch {
            throw MessagingError("SMTP \(configuration.server): \(error)")
        }
    }

    private func deliver(_ envelope: SMTPEnvelope, data: String) async throws {
        let security = configuration.security
        let tls = try self.tls.get()
        let channel: NIOAsyncChannel<SMTPReply, ByteBuffer>
        do {
            channel = try await SMTPConnection.open(configuration, implicitTLS: security == .tls ? tls : nil, group: group)
        } catch {
            throw MessagingError("SMTP: cannot connect to \(configuration.server): \(error)")
        }
        try await channel.executeThenClose { inbound, outbound in
            let connection = SMTPConnection(channel: channel.channel, inbound: inbound, outbound: outbound, logger: logger)
            var session = SMTPSession(connection: connection, configuration: configuration, tls: tls, isEncrypted: security == .tls)
            try await session.deliver(envelope, data: data)
        }
    }
}
