package import CirrusServices
package import Foundation

/// A ``MailMessage`` as an RFC 5322 message with MIME bodies, ready to be sent after DATA.
///
/// The text part is `text/plain; charset=utf-8`; with ``MailMessage/html`` the message is `multipart/alternative`
/// with a `text/html` part after it. Bodies are quoted-printable, so the message is 7-bit clean; a non-ASCII subject
/// or display name becomes RFC 2047 encoded-words.
package struct MIMEMessage: Sendable {
    /// The message to render.
    package var message: MailMessage
    /// The `Date` header.
    package var date: Date
    /// The `Message-ID` header, with its angle brackets.
    package var messageID: String
    /// The boundary of the multipart body (`=_` never occurs in quoted-printable text).
    package var boundary: String

    /// Prepares a message with a fresh Message-ID and boundary.
    /// - Parameters:
    ///   - message: the message to render.
    ///   - date: the `Date` header.
    package init(_ message: MailMessage, date: Date = Date()) {
        let unique = UUID().uuidString.lowercased()
        self.message = message
        self.date = date
        messageID = "<\(unique)@\(Self.domain(of: message.from))>"
        boundary = "=_cirrus_\(unique)"
    }

    /// The message as text with CRLF line endings: headers, a blank line and the body.
    package func rendered() -> String {
        (headers() + content()).joined(separator: "\r\n") + "\r\n"
    }

    private func headers() -> [String] {
        [
            "Date: \(Self.rfc5322Date(date))",
            "From: \(Self.mailbox(message.from, name: message.fromName))",
            "To: \(message.to.joined(separator: ", "))",
            "Subject: \(MIMEEncoding.headerText(message.subject))",
            "Message-ID: \(messageID)",
            "MIME-Version: 1.0",
        ]
    }

    /// The content headers, a blank line and the body.
    private func content() -> [String] {
        guard let html = message.html else { return Self.part("text/plain", message.text) }
        return ["Content-Type: multipart/alternative; boundary=\"\(boundary)\"", "", "--\(boundary)"]
            + Self.part("text/plain", message.text)
            + ["--\(boundary)"]
            + Self.part("text/html", html)
            + ["--\(boundary)--"]
    }

    private static func part(_ type: String, _ text: String) -> [String] {
        [
            "Content-Type: \(type); charset=utf-8",
            "Content-Transfer-Encoding: quoted-printable",
            "",
            MIMEEncoding.quotedPrintable(text),
        ]
    }

    /// `address`, or `"Name" <address>` (encoded-words for a non-ASCII name).
    static func mailbox(_ address: String, name: String?) -> String {
        guard let name, !name.isEmpty else { return address }
        let flat = MIMEEncoding.singleLine(name)
        guard MIMEEncoding.isPlain(flat) else { return "\(MIMEEncoding.encodedWords(flat)) <\(address)>" }
        let quoted = flat.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
        return "\"\(quoted)\" <\(address)>"
    }

    private static func domain(of address: String) -> String {
        let domain = address.split(separator: "@").last.map(String.init) ?? ""
        return address.contains("@") && !domain.isEmpty ? domain : "cirrus.invalid"
    }
}
