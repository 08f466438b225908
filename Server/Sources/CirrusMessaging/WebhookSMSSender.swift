import CirrusModel
package import CirrusServices
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Sends text messages by POSTing them as JSON to an HTTP(S) endpoint: a gateway of your own, or a small adapter
/// in front of a provider's API.
///
/// The body is `{"phoneNumber": …, "text": …, "code": … or null, "purpose": …, "channel": "sms" | "voice"}`
/// with `Content-Type: application/json` and, when a token is configured, `Authorization: Bearer <token>`.
/// Any 2xx status counts as accepted.
///
/// ```swift
/// let sms = try WebhookSMSSender(configuration: .init(url: URL(string: "https://sms.example.com/send")!, bearerToken: token))
/// ```
package final class WebhookSMSSender: SMSSender {
    /// Where and how messages are posted.
    package let configuration: WebhookSMSConfiguration
    private let session: URLSession

    /// Creates a sender.
    /// - Throws: ``MessagingError`` when the URL is not `http` or `https`.
    package init(configuration: WebhookSMSConfiguration) throws {
        guard let scheme = configuration.url.scheme?.lowercased(), scheme == "http" || scheme == "https" else {
            throw MessagingError("SMS webhook: the URL must be http or https, not \(configuration.url.scheme ?? "none")")
        }
        self.configuration = configuration
        let sessionConfiguration = URLSessionConfiguration.ephemeral
        sessionConfiguration.timeoutIntervalForRequest = configuration.timeout
        sessionConfiguration.timeoutIntervalForResource = configuration.timeout
        session = URLSession(configuration: sessionConfiguration)
    }

    deinit {
        session.finishTasksAndInvalidate()
    }

    /// Posts `message` and returns once the endpoint answered with a 2xx status.
    /// - Throws: ``MessagingError`` for any other status (quoting the start of the body), a timeout or a network error.
    package func send(_ message: SMSMessage) async throws {
        let (body, response) = try await post(request(for: message))
        guard let status = (response as? HTTPURLResponse)?.statusCode, (200 ..< 300).contains(status) else {
            let status = (response as? HTTPURLResponse).map { String($0.statusCode) } ?? "no HTTP status"
            let excerpt = String(decoding: body.prefix(200), as: UTF8.self)
            throw MessagingError("SMS webhook \(endpoint) answered \(status): \(excerpt)")
        }
    }

    private func post(_ request: URLRequest) async throws -> (Data, URLResponse) {
        do {
            return try await session.data(for: request)
        } catch {
            throw MessagingError("SMS webhook \(endpoint): \(error.localizedDescription)")
        }
    }

    func request(for message: SMSMessage) -> URLRequest {
        var request = URLRequest(url: configuration.url, timeoutInterval: configuration.timeout)
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        if let token = configuration.bearerToken {
            request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")
        }
        request.httpBody = Data(JSONWriter.bytes(Self.body(of: message)))
        return request
    }

    /// The JSON that is posted for `message`.
    static func body(of message: SMSMessage) -> JSON {
        .object([
            "phoneNumber": .string(message.phoneNumber),
            "text": .string(message.text),
            "code": message.code.map(JSON.string) ?? .null,
            "purpose": .string(message.purpose),
            "channel": .string(message.channel),
        ])
    }

    /// The endpoint for error messages: scheme, host, port and path, never the query (it may hold a key).
    private var endpoint: String {
        let url = configuration.url
        return "\(url.scheme ?? "")://\(url.host ?? "")\(url.port.map { ":\($0)" } ?? "")\(url.path)"
    }
}
