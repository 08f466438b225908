import CirrusMessaging
import CirrusModel
import CirrusServer
import CirrusServices
import CirrusTesting
import Foundation
import Testing

@Suite("Account mail through a real SMTP server")
struct SMTPDeliveryTests {
    /// The text of a received message: the body after the headers, quoted-printable decoded.
    static func decodedBody(_ data: String) -> String {
        let body = data.range(of: "\r\n\r\n").map { String(data[$0.upperBound...]) } ?? data
        var bytes: [UInt8] = []
        var rest = Array(body.replacingOccurrences(of: "=\r\n", with: "").utf8)[...]
        while let byte = rest.popFirst() {
            if byte == UInt8(ascii: "="), rest.count >= 2, let value = UInt8(String(decoding: rest.prefix(2), as: UTF8.self), radix: 16) {
                bytes.append(value)
                rest = rest.dropFirst(2)
            } else {
                bytes.append(byte)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    @Test("the configured SMTP client mails the verification link over STARTTLS with AUTH, and the link verifies the address")
    func verificationOverSMTP() async throws {
        let credentials = SMTPTestServer.Credentials(username: "mailer", password: "mail-secret")
        try await SMTPTestServer.with(.init(tls: .test, credentials: credentials)) { smtp in
            let port = smtp.port
            let accounts = Verification.accounts {
                $0.verifyEmailOnSignUp = true
                $0.messaging.emailFrom = "accounts@shop.example"
            }
            try await TestServer.with(accounts: accounts, configure: { configuration in
                configuration.mailSender = nil
                configuration.smtp = SMTPConfiguration(
                    host: "127.0.0.1", port: port, security: .startTLS,
                    credentials: .init(username: "mailer", password: "mail-secret"), timeout: 10,
                    tls: SMTPTLSOptions(trustedCertificatesPEM: [TestCertificate.certificatePEM])
                )
            }) { client in
                let user = try await client.signUp(.leancloud, "via-smtp", extra: ["email": "reader@example.com"])
                #expect(client.mailOutbox.messages.isEmpty)
                let mail = try await smtp.nextMessage()
                #expect(mail.isTLS)
                #expect(mail.authenticatedUser == "mailer")
                #expect(mail.from == "accounts@shop.example")
                #expect(mail.recipients == ["reader@example.com"])
                #expect(mail.data.contains("Subject: Verify your e-mail address for Shop\r\n"))
                let text = Self.decodedBody(mail.data)
                let link = try #require(Verification.linkPath(in: text, page: "verify-email"), "no link in: \(text)")
                #expect(try await client.user(user.id)["emailVerified"] == false)
                let page = try await client.browse(.get, link)
                #expect(page.status == 200)
                #expect(try await client.user(user.id)["emailVerified"] == true)
            }
        }
    }

    @Test("an SMTP server that refuses the recipient makes requestEmailVerify answer 602")
    func refusedRecipient() async throws {
        try await SMTPTestServer.with(.init(rejectedRecipients: ["bounce@example.com"])) { smtp in
            let port = smtp.port
            try await TestServer.with(accounts: Verification.accounts(), configure: { configuration in
                configuration.mailSender = nil
                configuration.smtp = SMTPConfiguration(host: "127.0.0.1", port: port, security: .none, timeout: 10)
            }) { client in
                _ = try await client.signUp(.leancloud, "bounce", extra: ["email": "bounce@example.com"])
                let reply = try await client.request(.leancloud, .post, "/requestEmailVerify", json: ["email": "bounce@example.com"])
                #expect(reply.code == 602)
                #expect(smtp.messages.isEmpty)
            }
        }
    }
}
