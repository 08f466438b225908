public import Foundation

/// Where and how ``WebhookSMSSender`` posts messages.
public struct WebhookSMSConfiguration: Sendable {
    /// The endpoint (`https://sms.example.com/send`).
    public var url: URL
    /// Sent as `Authorization: Bearer <token>` when set.
    public var bearerToken: String?
    /// The longest wait for the answer, in seconds.
    public var timeout: Double

    /// Creates a configuration.
    public init(url: URL, bearerToken: String? = nil, timeout: Double = 10) {
        self.url = url
        self.bearerToken = bearerToken
        self.timeout = timeout
    }
}
