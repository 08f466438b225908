import CirrusMessaging
import CirrusServices
import CirrusTesting
import Foundation
import Testing

@Suite("SMTP client delivering to a local server")
struct SMTPClientTests {
    @Test("a plain message reaches the server with its envelope and headers")
    func deliversPlainMessage() async throws {
        try await SMTPTestServer.with { server in
            let message = MailMessage(from: "noreply@example.com", to: ["ada@example.com", "bob@example.com"], subject: "Hello", text: "Hi")
            try await makeClient(server).send(message)
            let mail = try await server.nextMessage()
            #expect(mail.from == "noreply@example.com")
            #expect(mail.recipients == ["ada@example.com", "bob@example.com"])
            #expect(mail.heloName == "client.test")
            #expect(!mail.isTLS)
            let parsed = ParsedMail(mail.data)
            #expect(parsed.header("To") == "ada@example.com, bob@example.com")
            #expect(parsed.header("Subject") == "Hello")
            #expect(parsed.header("MIME-Version") == "1.0")
            #expect(parsed.header("Content-Type") == "text/plain; charset=utf-8")
            #expect(parsed.header("Content-Transfer-Encoding") == "quoted-printable")
            #expect(parsed.header("Message-ID")?.hasSuffix("@example.com>") == true)
            #expect(parsed.header("Date")?.hasSuffix("+0000") == true)
            #expect(parsed.decodedBody == "Hi")
        }
    }

    @Test("a UTF-8 subject, display name and body are encoded and decode back")
    func encodesUTF8() async throws {
        try await SMTPTestServer.with { server in
            let subject = "验证你的邮箱 — Vérifiez votre adresse e-mail pour continuer à utiliser Cirrus 🌧️"
            let text = "你好，Zoë!\nYour code is 123456. Ünïcödé lines, long enough to need a soft line break in quoted-printable."
            let message = MailMessage(from: "noreply@example.com", fromName: "云端 Cirrus", to: ["ada@example.com"], subject: subject, text: text)
            try await makeClient(server).send(message)
            let parsed = ParsedMail(try await server.nextMessage().data)
            #expect(parsed.header("Subject")?.hasPrefix("=?UTF-8?B?") == true)
            #expect(parsed.decodedHeader("Subject") == subject)
            #expect(parsed.decodedHeader("From") == "云端 Cirrus <noreply@example.com>")
            #expect(parsed.decodedBody == text.replacingOccurrences(of: "\n", with: "\r\n"))
        }
    }

    @Test("body lines starting with a dot survive dot-stuffing")
    func dotStuffing() async throws {
        try await SMTPTestServer.with { server in
            let text = "first\n.\n.hidden\n..two dots\nlast."
            try await makeClient(server).send(sampleMessage(text: text))
            let parsed = ParsedMail(try await server.nextMessage().data)
            #expect(parsed.decodedBody == text.replacingOccurrences(of: "\n", with: "\r\n"))
        }
    }

    @Test("a message with HTML is multipart/alternative with a plain and an HTML part")
    func multipartAlternative() async throws {
        try await SMTPTestServer.with { server in
            let html = "<p>Hi <b>Ada</b>, click <a href=\"https://example.com/verify?token=abc\">here</a>.</p>"
            try await makeClient(server).send(sampleMessage(text: "Hi Ada, open https://example.com/verify?token=abc", html: html))
            let parsed = ParsedMail(try await server.nextMessage().data)
            #expect(parsed.header("Content-Type")?.hasPrefix("multipart/alternative; boundary=") == true)
            let parts = parsed.parts()
            #expect(parts.count == 2)
            #expect(parts.first?.header("Content-Type") == "text/plain; charset=utf-8")
            #expect(parts.first?.decodedBody == "Hi Ada, open https://example.com/verify?token=abc")
            #expect(parts.last?.header("Content-Type") == "text/html; charset=utf-8")
            #expect(parts.last?.decodedBody == html)
        }
    }

    @Test("a server that refuses EHLO is greeted with HELO")
    func heloFallback() async throws {
        try await SMTPTestServer.with(.init(acceptsEHLO: false)) { server in
            try await makeClient(server).send(sampleMessage())
            #expect(try await server.nextMessage().heloName == "client.test")
        }
    }

    @Test("a rejected recipient fails the send with the server's reply")
    func rejectedRecipient() async throws {
        try await SMTPTestServer.with(.init(rejectedRecipients: ["ghost@example.com"])) { server in
            let message = MailMessage(from: "noreply@example.com", to: ["ada@example.com", "ghost@example.com"], subject: "Hi", text: "Hi")
            let error = await messagingError { try await makeClient(server).send(message) }
            #expect(error?.description.contains("550 5.1.1 <ghost@example.com>") == true)
            #expect(server.messages.isEmpty)
        }
    }

    @Test("an address with a line break is refused before connecting")
    func refusesInjectedAddress() async throws {
        try await SMTPTestServer.with { server in
            let message = MailMessage(from: "noreply@example.com", to: ["ada@example.com>\r\nRCPT TO:<eve@example.com"], subject: "Hi", text: "Hi")
            let error = await messagingError { try await makeClient(server).send(message) }
            #expect(error?.description.contains("invalid address") == true)
        }
    }

    @Test("connecting to a closed port fails instead of hanging")
    func closedPort() async throws {
        let server = try await SMTPTestServer.start()
        await server.stop()
        let error = await messagingError { try await makeClient(server).send(sampleMessage()) }
        #expect(error?.description.contains("cannot connect to 127.0.0.1:\(server.port)") == true)
    }

    @Test("a server that never answers fails the send after the timeout")
    func silentServer() async throws {
        try await SMTPTestServer.with(.init(staysSilent: true)) { server in
            let error = await messagingError { try await makeClient(server, timeout: 0.3).send(sampleMessage()) }
            #expect(error?.description.contains("127.0.0.1:\(server.port): no reply from the server within 0.3 seconds") == true)
        }
    }
}
