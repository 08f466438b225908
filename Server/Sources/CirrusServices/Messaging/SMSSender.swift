/// One text message to a phone.
public struct SMSMessage: Sendable, Hashable {
    /// The number in the form the client sent it (`+8618612345678` or `18612345678`).
    public var phoneNumber: String
    /// The rendered text.
    public var text: String
    /// The verification code it carries, if any (providers with server-side templates need it alone).
    public var code: String?
    /// What the code is for: `sms`, `login`, `verify`, `change`, `reset`.
    public var purpose: String
    /// `sms` or `voice`.
    public var channel: String

    public init(phoneNumber: String, text: String, code: String?, purpose: String, channel: String = "sms") {
        self.phoneNumber = phoneNumber
        self.text = text
        self.code = code
        self.purpose = purpose
        self.channel = channel
    }
}

/// Delivers text messages: an HTTP webhook to a real gateway, or the development outbox.
public protocol SMSSender: Sendable {
    /// Sends one message; returns once the gateway accepted it.
    /// - Throws: ``MessagingError`` when it could not be delivered.
    func send(_ message: SMSMessage) async throws
}
