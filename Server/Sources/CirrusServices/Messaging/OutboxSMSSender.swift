import CirrusModel
import Foundation
package import Logging

/// The development SMS sender: keeps every message in memory and, given a path, appends it to a JSON-lines file.
///
/// Nothing leaves the machine. Tests read ``messages`` or ``last(to:)``; developers read the file, whose lines hold
/// `time` (ISO 8601) and the message's fields (`phoneNumber`, `text`, `code`, `purpose`, `channel`).
///
/// ```swift
/// let outbox = OutboxSMSSender(filePath: dataDirectory + "/outbox/sms.jsonl")
/// ```
package final class OutboxSMSSender: SMSSender {
    private let file: OutboxFile?
    private let logger: Logger?
    private let sent = Protected<[SMSMessage]>([])

    /// Creates an outbox.
    /// - Parameters:
    ///   - filePath: the JSON-lines file to append to; `nil` keeps messages in memory only.
    ///   - logger: where a one-line notice of each message goes (purpose and channel only, never the number or code).
    package init(filePath: String? = nil, logger: Logger? = nil) {
        file = filePath.map(OutboxFile.init(path:))
        self.logger = logger
    }

    /// Every message sent so far, oldest first.
    package var messages: [SMSMessage] {
        sent.withValue { $0 }
    }

    /// The latest message to `phoneNumber`, if any.
    package func last(to phoneNumber: String) -> SMSMessage? {
        sent.withValue { messages in messages.last { $0.phoneNumber == phoneNumber } }
    }

    /// Forgets the messages kept in memory (the file is left as it is).
    package func removeAll() {
        sent.withValue { $0.removeAll() }
    }

    /// Keeps `message` and appends it to the file.
    /// - Throws: ``MessagingError`` when the file cannot be written.
    package func send(_ message: SMSMessage) async throws {
        try sent.withValue { messages in
            try file?.append(Self.record(of: message))
            messages.append(message)
        }
        logger?.info("Outbox: \(message.channel) message (\(message.purpose))", metadata: metadata)
    }

    private var metadata: Logger.Metadata {
        file.map { ["file": .string($0.path)] } ?? [:]
    }

    static func record(of message: SMSMessage) -> [String: JSON] {
        [
            "time": OutboxFile.timestamp(),
            "phoneNumber": .string(message.phoneNumber),
            "text": .string(message.text),
            "code": message.code.map(JSON.string) ?? .null,
            "purpose": .string(message.purpose),
            "channel": .string(message.channel),
        ]
    }
}
