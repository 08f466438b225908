/// One e-mail to send: plain text, optionally with an HTML alternative.
public struct MailMessage: Sendable, Hashable {
    /// The sender address (`noreply@example.com`); a display name goes in ``fromName``.
    public var from: String
    public var fromName: String?
    public var to: [String]
    public var subject: String
    public var text: String
    public var html: String?

    public init(from: String, fromName: String? = nil, to: [String], subject: String, text: String, html: String? = nil) {
        self.from = from
        self.fromName = fromName
        self.to = to
        self.subject = subject
        self.text = text
        self.html = html
    }
}

/// Delivers e-mail: the SMTP client in production, the development outbox otherwise.
public protocol MailSender: Sendable {
    /// Sends one message; returns once the server accepted it.
    /// - Throws: ``MessagingError`` when it could not be delivered.
    func send(_ message: MailMessage) async throws
}

/// Why a message could not be sent. The text is for logs; clients get the dialect's code for a failed send.
public struct MessagingError: Error, Sendable, Equatable, CustomStringConvertible {
    public var description: String

    public init(_ description: String) {
        self.description = description
    }
}
