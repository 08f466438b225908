/// Where account messages go: an e-mail transport and an SMS transport.
package struct MessageTransports: Sendable {
    package var mail: any MailSender
    package var sms: any SMSSender

    package init(mail: any MailSender, sms: any SMSSender) {
        self.mail = mail
        self.sms = sms
    }

    /// Development outboxes that keep messages in memory only.
    package static func inMemory() -> MessageTransports {
        MessageTransports(mail: OutboxMailSender(), sms: OutboxSMSSender())
    }
}
