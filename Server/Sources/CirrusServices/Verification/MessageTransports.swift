/// Where account messages go: an e-mail transport and an SMS transport.
public struct MessageTransports: Sendable {
    public var mail: any MailSender
    public var sms: any SMSSender

    public init(mail: any MailSender, sms: any SMSSender) {
        self.mail = mail
        self.sms = sms
    }

    /// Development outboxes that keep messages in memory only.
    public static func inMemory() -> MessageTransports {
        MessageTransports(mail: OutboxMailSender(), sms: OutboxSMSSender())
    }
}
