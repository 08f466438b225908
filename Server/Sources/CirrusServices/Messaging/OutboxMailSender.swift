import CirrusModel
import Foundation
package import Logging

/// The development mail sender: keeps every message in memory and, given a path, appends it to a JSON-lines file.
///
/// Nothing leaves the machine. Tests read ``messages`` or ``last(to:)``; developers read the file, whose lines hold
/// `time` (ISO 8601) and the message's fields (`from`, `fromName`, `to`, `subject`, `text`, `html`).
///
/// ```swift
/// let outbox = OutboxMailSender(filePath: dataDirectory + "/outbox/mail.jsonl")
/// ```
package final class OutboxMailSender: MailSender {
    private let file: OutboxFile?
    private let logger: Logger?
    private let sent = Protected<[MailMessage]>([])

    /// Creates an outbox.
    /// - Parameters:
    ///   - filePath: the JSON-lines file to append to; `nil` keeps messages in memory only.
    ///   - logger: where a one-line notice of each message goes (recipients only, never the text).
    package init(filePath: String? = nil, logger: Logger? = nil) {
        file = filePath.map(OutboxFile.init(path:))
        self.logger = logger
    }

    /// Every message sent so far, oldest first.
    package var messages: [MailMessage] {
        sent.withValue { $0 }
    }

    /// The latest message addressed to `address`, if any.
    package func last(to address: String) -> MailMessage? {
        sent.withValue { messages in messages.last { $0.to.contains(address) } }
    }

    /// Forgets the messages kept in memory (the file is left as it is).
    package func removeAll() {
        sent.withValue { $0.removeAll() }
    }

    /// Keeps `message` and appends it to the file.
    /// - Throws: ``MessagingError`` when the file cannot be written.
    package func send(_ message: MailMessage) async throws {
        try sent.withValue { messages in
            try file?.append(Self.record(of: message))
            messages.append(message)
        }
        logger?.info("Outbox: mail to \(message.to.joined(separator: ", "))", metadata: metadata)
    }

    private var metadata: Logger.Metadata {
        file.map { ["file": .string($0.path)] } ?? [:]
    }

    static func record(of message: MailMessage) -> [String: JSON] {
        [
            "time": OutboxFile.timestamp(),
            "from": .string(message.from),
            "fromName": message.fromName.map(JSON.string) ?? .null,
            "to": .array(message.to.map(JSON.string)),
            "subject": .string(message.subject),
            "text": .string(message.text),
            "html": message.html.map(JSON.string) ?? .null,
        ]
    }
}
