import CirrusModel
import CirrusServices
import CirrusTesting
import Foundation
import Testing

/// Settings and helpers shared by the SMS and e-mail flow tests.
enum Verification {
    static let number = "+8618600000001"
    static let otherNumber = "+8618600000002"
    static let sandboxNumber = "+8618600000000"
    static let sandboxCode = "123456"

    /// The test accounts (cheap hashes) on `clock`, changed by `change`.
    static func accounts(clock: TestClock = TestClock(), _ change: (inout AccountSettings) -> Void = { _ in }) -> AccountSettings {
        var accounts = TestServer.fastAccounts
        accounts.clock = { clock.now() }
        accounts.messaging.publicURL = "https://api.example.com"
        accounts.messaging.appName = "Shop"
        change(&accounts)
        return accounts
    }

    /// The link to `page` (`verify-email`, `reset-password`) in a mail text, as a path with its query.
    static func linkPath(in text: String, page: String) -> String? {
        guard let range = text.range(of: "https://api.example.com/auth/\(page)\\?token=[a-z0-9]+", options: .regularExpression) else {
            return nil
        }
        return String(text[range].dropFirst("https://api.example.com".count))
    }
}

/// An SMS transport that always fails, as a gateway that is down.
struct FailingSMSSender: SMSSender {
    func send(_ message: SMSMessage) async throws {
        throw MessagingError("gateway down")
    }
}

/// A mail transport that always fails, as an unreachable SMTP server.
struct FailingMailSender: MailSender {
    func send(_ message: MailMessage) async throws {
        throw MessagingError("SMTP down")
    }
}

extension TestClient {
    /// Requests a code at `path` for `number` and returns the code the SMS outbox received, failing the test unless
    /// the request succeeded and an SMS went out.
    func requestCode(
        _ endpoint: Endpoint, _ path: String, _ number: String, extra: [String: JSON] = [:], auth: Auth = .appKey,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> String {
        let before = smsOutbox.messages.count
        var body = extra
        body["mobilePhoneNumber"] = .string(number)
        let reply = try await request(endpoint, .post, path, json: .object(body), auth: auth)
        try #require(reply.status == 200, "\(path) failed: \(reply.bodyText)", sourceLocation: sourceLocation)
        try #require(smsOutbox.messages.count == before + 1, "no SMS was sent", sourceLocation: sourceLocation)
        return try #require(smsOutbox.last(to: number)?.code, sourceLocation: sourceLocation)
    }

    /// The link to `page` in the latest mail to `address`, as a path with its query.
    func mailedLink(to address: String, page: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
        let mail = try #require(mailOutbox.last(to: address), "no mail to \(address)", sourceLocation: sourceLocation)
        return try #require(Verification.linkPath(in: mail.text, page: page), "no link in: \(mail.text)", sourceLocation: sourceLocation)
    }

    /// A user fetched with the master key.
    func user(_ id: String) async throws -> JSON {
        try await request(.leancloud, .get, "/users/\(id)", auth: .master).json
    }
}
