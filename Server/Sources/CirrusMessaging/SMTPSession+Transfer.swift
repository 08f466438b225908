import CirrusServices
import NIOCore

/// MAIL FROM, RCPT TO and DATA.
extension SMTPSession {
    /// Sends the envelope and the message.
    /// - Throws: ``MessagingError`` quoting the server when it refuses the sender, any recipient or the data.
    mutating func transfer(_ envelope: SMTPEnvelope, data: String) async throws {
        try expect(await connection.command(try mailCommand(envelope)), 250, after: "the sender <\(envelope.from)>")
        for recipient in envelope.recipients {
            try expect(await connection.command("RCPT TO:<\(recipient)>"), 250, 251, after: "the recipient <\(recipient)>")
        }
        try expect(await connection.command("DATA"), 354, after: "DATA")
        try await connection.write(ByteBuffer(string: Self.dotStuffed(data)))
        try expect(await connection.reply(), 250, after: "the message")
    }

    private func mailCommand(_ envelope: SMTPEnvelope) throws -> String {
        guard envelope.needsUTF8 else { return "MAIL FROM:<\(envelope.from)>" }
        guard capabilities.smtpUTF8 else {
            throw MessagingError(
                "SMTP \(configuration.server) does not offer SMTPUTF8, needed for a non-ASCII address"
            )
        }
        return "MAIL FROM:<\(envelope.from)> SMTPUTF8"
    }

    /// The message as DATA sends it: CRLF line endings, a `.` doubled at the start of a line, and the final
    /// `CRLF.CRLF` (RFC 5321 §4.5.2).
    static func dotStuffed(_ message: String) -> String {
        var lines = message.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\r\n" || $0 == "\n" })
        if lines.last?.isEmpty == true { lines.removeLast() }
        var output = ""
        output.reserveCapacity(message.utf8.count + 16)
        for line in lines {
            if line.hasPrefix(".") { output += "." }
            output += line
            output += "\r\n"
        }
        return output + ".\r\n"
    }
}
