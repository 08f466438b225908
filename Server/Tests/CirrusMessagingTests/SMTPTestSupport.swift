import CirrusMessaging
import CirrusServices
import CirrusTesting

/// A client for `server` on 127.0.0.1 that trusts the test certificate and gives up after five seconds.
func makeClient(
    _ server: SMTPTestServer, security: SMTPConfiguration.Security = .none, username: String? = nil,
    password: String = "", timeout: Double = 60, trustsTestCertificate: Bool = true
) -> SMTPClient {
    let tls = SMTPTLSOptions(trustedCertificatesPEM: trustsTestCertificate ? [TestCertificate.certificatePEM] : [])
    let credentials = username.map { SMTPConfiguration.Credentials(username: $0, password: password) }
    return SMTPClient(
        configuration: SMTPConfiguration(
            host: "127.0.0.1", port: server.port, security: security, credentials: credentials, heloName: "client.test",
            timeout: timeout, tls: tls
        )
    )
}

/// A plain message from `noreply@example.com` to `ada@example.com`.
func sampleMessage(subject: String = "Hello", text: String = "Hi Ada,\nwelcome.", html: String? = nil) -> MailMessage {
    MailMessage(from: "noreply@example.com", fromName: "Cirrus", to: ["ada@example.com"], subject: subject, text: text, html: html)
}

/// The error `body` throws, as ``MessagingError``; `nil` when it throws nothing or something else.
func messagingError(_ body: () async throws -> Void) async -> MessagingError? {
    do {
        try await body()
        return nil
    } catch {
        return error as? MessagingError
    }
}
