import Foundation

/// What the account messages say and how often they may be sent: the app's name, where links point, the sender
/// address, the templates, code and link lifetimes, send limits and the sandbox numbers.
public struct MessagingSettings: Sendable {
    /// The application's name, used in messages as `{{appname}}`.
    public var appName: String
    /// The public base URL of the server (`https://api.example.com`), which e-mailed links start with; `nil` for
    /// `http://<host>:<port>` of the server (set by `CirrusServer.build`).
    public var publicURL: String?
    /// The sender address of e-mails (`noreply@example.com`); the display name is ``appName``.
    public var emailFrom: String
    /// The texts of SMS and e-mail messages.
    public var templates: MessageTemplates
    /// How long an SMS code stays valid unless the request asks for another lifetime, in milliseconds.
    public var smsCodeLifetime: Int64
    /// The shortest time between two messages to one phone number or address, in milliseconds (LeanCloud: 1 minute).
    public var minimumSendInterval: Int64
    /// The most messages one phone number or address gets in 24 hours (LeanCloud: 10).
    public var dailySendLimit: Int
    /// Wrong tries after which a code stops working.
    public var maximumWrongCodeTries: Int
    /// Sandbox numbers and their fixed codes: no SMS is sent to them and the fixed code is always accepted (seed
    /// 000 L769–773: for tests and App Store review).
    public var sandboxNumbers: [String: String]
    /// How long an e-mail verification link stays valid, in milliseconds (LeanCloud: a week).
    public var verifyEmailLinkLifetime: Int64
    /// How long a password reset link stays valid, in milliseconds.
    public var resetPasswordLinkLifetime: Int64

    public init(
        appName: String = "Cirrus", publicURL: String? = nil, emailFrom: String = "noreply@localhost",
        templates: MessageTemplates = MessageTemplates(), smsCodeLifetime: Int64 = 10 * 60_000, minimumSendInterval: Int64 = 60_000,
        dailySendLimit: Int = 10, maximumWrongCodeTries: Int = 5, sandboxNumbers: [String: String] = [:],
        verifyEmailLinkLifetime: Int64 = 7 * 24 * 3_600_000, resetPasswordLinkLifetime: Int64 = 24 * 3_600_000
    ) {
        self.appName = appName
        self.publicURL = publicURL
        self.emailFrom = emailFrom
        self.templates = templates
        self.smsCodeLifetime = smsCodeLifetime
        self.minimumSendInterval = minimumSendInterval
        self.dailySendLimit = dailySendLimit
        self.maximumWrongCodeTries = maximumWrongCodeTries
        self.sandboxNumbers = sandboxNumbers
        self.verifyEmailLinkLifetime = verifyEmailLinkLifetime
        self.resetPasswordLinkLifetime = resetPasswordLinkLifetime
    }

    /// Parses a sandbox entry `+8618600000000=123456`.
    /// - Returns: the number and its code, or `nil` when the text is not `<number>=<digits>`.
    package static func sandboxEntry(_ text: String) -> (number: String, code: String)? {
        let parts = text.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
        guard parts.count == 2, UserRules.isPhoneNumber(parts[0]), !parts[1].isEmpty, parts[1].allSatisfy(\.isNumber) else { return nil }
        return (parts[0], parts[1])
    }
}
