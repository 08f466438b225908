import CirrusServices
import NIOSSL

/// One conversation with an SMTP server, from the greeting to QUIT, delivering one message.
///
/// The steps live in extensions: ``hello()`` and ``secure()`` (+Hello), ``authenticate()`` (+Authentication),
/// ``transfer(_:data:)`` (+Transfer).
struct SMTPSession {
    var connection: SMTPConnection
    let configuration: SMTPConfiguration
    /// The context for STARTTLS; `nil` when the configuration never upgrades.
    let tls: NIOSSLContext?
    /// What the server offered in its latest EHLO reply.
    var capabilities = SMTPCapabilities()
    /// Whether the connection is encrypted (implicit TLS, or after STARTTLS).
    var isEncrypted: Bool

    /// Runs the whole conversation for one message.
    /// - Parameters:
    ///   - envelope: the sender and recipients for MAIL FROM and RCPT TO.
    ///   - data: the message as rendered by ``MIMEMessage``, with CRLF line endings.
    mutating func deliver(_ envelope: SMTPEnvelope, data: String) async throws {
        try expect(await connection.reply(), 220, after: "connecting")
        try await hello()
        try await secure()
        try await authenticate()
        try await transfer(envelope, data: data)
        try await quit()
    }

    /// Says goodbye; a server that closes without answering QUIT has still accepted the message.
    private mutating func quit() async throws {
        _ = try? await connection.command("QUIT")
    }

    /// Checks that `reply` has one of the `expected` codes.
    /// - Throws: ``MessagingError`` quoting the server's reply otherwise.
    func expect(_ reply: SMTPReply, _ expected: Int..., after step: String) throws {
        guard expected.contains(reply.code) else {
            throw MessagingError("SMTP \(configuration.server) refused \(step): \(reply.text)")
        }
    }
}
