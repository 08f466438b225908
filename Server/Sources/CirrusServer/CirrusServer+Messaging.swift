import CirrusMessaging
import CirrusServices
import Foundation
import Logging

/// Choosing the transports of account messages and completing their settings.
extension CirrusServer {
    /// The injected senders, else SMTP and the SMS webhook when configured, else the development outboxes in
    /// `<data dir>/outbox/`. Logs one notice naming the transports in use.
    /// - Throws: ``MessagingError`` for an SMS webhook URL that is not http or https.
    static func makeTransports(_ configuration: ServerConfiguration, logger: Logger) throws -> MessageTransports {
        let outbox = URL(fileURLWithPath: configuration.dataDirectory).appendingPathComponent("outbox")
        let mail: any MailSender
        let mailDescription: String
        if let injected = configuration.mailSender {
            (mail, mailDescription) = (injected, "\(type(of: injected))")
        } else if let smtp = configuration.smtp {
            mail = SMTPClient(configuration: smtp, logger: logger)
            mailDescription = "SMTP \(smtp.host):\(smtp.port) (\(smtp.security.rawValue))"
        } else {
            let path = outbox.appendingPathComponent("mail.jsonl").path
            (mail, mailDescription) = (OutboxMailSender(filePath: path, logger: logger), "outbox \(path)")
        }
        let sms: any SMSSender
        let smsDescription: String
        if let injected = configuration.smsSender {
            (sms, smsDescription) = (injected, "\(type(of: injected))")
        } else if let webhook = configuration.smsWebhook {
            sms = try WebhookSMSSender(configuration: webhook)
            smsDescription = "webhook \(webhook.url.scheme ?? "")://\(webhook.url.host ?? "")\(webhook.url.port.map { ":\($0)" } ?? "")\(webhook.url.path)"
        } else {
            let path = outbox.appendingPathComponent("sms.jsonl").path
            (sms, smsDescription) = (OutboxSMSSender(filePath: path, logger: logger), "outbox \(path)")
        }
        logger.notice("account messages", metadata: ["mail": "\(mailDescription)", "sms": "\(smsDescription)"])
        return MessageTransports(mail: mail, sms: sms)
    }

    /// The account settings with the public URL of links defaulting to `http://<host>:<port>` (`localhost` for a
    /// wildcard address).
    static func accountSettings(_ configuration: ServerConfiguration) -> AccountSettings {
        var accounts = configuration.accounts
        if accounts.messaging.publicURL == nil {
            let host = ["0.0.0.0", "::", "[::]"].contains(configuration.host) ? "localhost" : configuration.host
            let shown = host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host
            accounts.messaging.publicURL = "http://\(shown):\(configuration.port)"
        }
        return accounts
    }
}
