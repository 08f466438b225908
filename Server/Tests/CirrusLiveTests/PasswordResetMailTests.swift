import CirrusTesting
import Foundation
import Testing

@Suite("Account mail of a live server")
struct PasswordResetMailTests {
    /// The body of a received message after its headers, quoted-printable decoded.
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

    @Test("cirrus serve with --smtp-* flags mails a password reset link over STARTTLS, and the link opens the reset form")
    func resetMailArrives() async throws {
        let credentials = SMTPTestServer.Credentials(username: "live-mailer", password: "live-secret")
        try await SMTPTestServer.with(.init(tls: .test, credentials: credentials)) { smtp in
            try await Sandbox.with { sandbox in
                let caFile = sandbox.path("smtp-ca.pem")
                try TestCertificate.certificatePEM.write(toFile: caFile, atomically: true, encoding: .utf8)
                let server = try await sandbox.startServer(extra: [
                    "--smtp-host", "127.0.0.1", "--smtp-port", String(smtp.port), "--smtp-security", "starttls",
                    "--smtp-username", "live-mailer", "--smtp-password", "live-secret", "--smtp-ca-file", caFile,
                    "--app-name", "Live Shop", "--email-from", "accounts@live.example",
                ])
                #expect(server.process.output.contains("SMTP 127.0.0.1:\(smtp.port) (startTLS)"))
                let signUp = try await server.client.send(
                    "POST", "/1.1/users", json: ["username": "liv", "password": "old-pass", "email": "liv@example.com"]
                )
                #expect(signUp.status == 201)
                let reply = try await server.client.send("POST", "/1.1/requestPasswordReset", json: ["email": "liv@example.com"])
                #expect(reply.status == 200)
                #expect(reply.json == [:])

                let mail = try await smtp.nextMessage(timeout: .seconds(30))
                #expect(mail.isTLS)
                #expect(mail.authenticatedUser == "live-mailer")
                #expect(mail.from == "accounts@live.example")
                #expect(mail.recipients == ["liv@example.com"])
                #expect(mail.data.contains("Subject: Reset your Live Shop password\r\n"))
                let text = Self.decodedBody(mail.data)
                let base = "http://127.0.0.1:\(server.port)"
                let range = try #require(text.range(of: "/auth/reset-password\\?token=[a-z0-9]+", options: .regularExpression), "no link in: \(text)")
                #expect(text.contains(base + text[range]))
                let form = try await server.client.send("GET", String(text[range]), headers: [:])
                #expect(form.status == 200)
                #expect(form.bodyText.contains("Choose a new password"))
                try await server.stopCleanly()
            }
        }
    }
}
