import CirrusServices

/// The sender and recipients given to MAIL FROM and RCPT TO, checked so that no address can inject a command.
struct SMTPEnvelope: Sendable, Equatable {
    /// The reverse path (`noreply@example.com`).
    var from: String
    /// The forward paths, one RCPT TO each.
    var recipients: [String]

    /// Takes the envelope from a message.
    /// - Throws: ``MessagingError`` when there is no recipient or an address is empty or holds a line break,
    ///   angle bracket, space or control character.
    init(_ message: MailMessage) throws {
        guard !message.to.isEmpty else { throw MessagingError("SMTP: the message has no recipient") }
        from = try Self.checked(message.from)
        recipients = try message.to.map(Self.checked)
    }

    /// Whether an address needs SMTPUTF8 (non-ASCII local part or domain).
    var needsUTF8: Bool {
        ([from] + recipients).contains { !$0.allSatisfy(\.isASCII) }
    }

    static func checked(_ address: String) throws -> String {
        let isValid = address.contains("@")
            && !address.unicodeScalars.contains { $0.value < 0x21 || $0.value == 0x7F || $0 == "<" || $0 == ">" }
        guard isValid else { throw MessagingError("SMTP: invalid address \"\(address.prefix(100))\"") }
        return address
    }
}
