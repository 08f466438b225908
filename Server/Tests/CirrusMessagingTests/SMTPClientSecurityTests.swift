import CirrusMessaging
import CirrusServices
import CirrusTesting
import Testing

@Suite("SMTP client with TLS and authentication")
struct SMTPClientSecurityTests {
    static let credentials = SMTPTestServer.Credentials(username: "mailer", password: "s3cret pass")

    @Test("STARTTLS upgrades the connection and AUTH PLAIN logs in")
    func startTLSWithPlainAuth() async throws {
        try await SMTPTestServer.with(.init(tls: .test, credentials: Self.credentials, authMechanisms: ["PLAIN"])) { server in
            try await makeClient(server, security: .startTLS, username: "mailer", password: "s3cret pass").send(sampleMessage())
            let mail = try await server.nextMessage()
            #expect(mail.isTLS)
            #expect(mail.authenticatedUser == "mailer")
            #expect(mail.heloName == "client.test")
        }
    }

    @Test("AUTH LOGIN is used when the server does not offer PLAIN")
    func loginAuth() async throws {
        try await SMTPTestServer.with(.init(tls: .test, credentials: Self.credentials, authMechanisms: ["LOGIN"])) { server in
            try await makeClient(server, security: .startTLS, username: "mailer", password: "s3cret pass").send(sampleMessage())
            #expect(try await server.nextMessage().authenticatedUser == "mailer")
        }
    }

    @Test("implicit TLS speaks TLS from the first byte")
    func implicitTLS() async throws {
        try await SMTPTestServer.with(.init(tls: .test, implicitTLS: true, credentials: Self.credentials)) { server in
            try await makeClient(server, security: .tls, username: "mailer", password: "s3cret pass").send(sampleMessage())
            let mail = try await server.nextMessage()
            #expect(mail.isTLS)
            #expect(mail.authenticatedUser == "mailer")
        }
    }

    @Test("required STARTTLS against a server without it fails with a clear error")
    func requiredStartTLSMissing() async throws {
        try await SMTPTestServer.with { server in
            let error = await messagingError { try await makeClient(server, security: .startTLS).send(sampleMessage()) }
            #expect(error?.description.contains("does not offer STARTTLS") == true)
            #expect(server.messages.isEmpty)
        }
    }

    @Test("STARTTLS if available continues in plain text when the server does not offer it")
    func optionalStartTLSMissing() async throws {
        try await SMTPTestServer.with { server in
            try await makeClient(server, security: .startTLSIfAvailable).send(sampleMessage())
            #expect(try await server.nextMessage().isTLS == false)
        }
    }

    @Test("STARTTLS if available upgrades when the server offers it")
    func optionalStartTLSOffered() async throws {
        try await SMTPTestServer.with(.init(tls: .test)) { server in
            try await makeClient(server, security: .startTLSIfAvailable).send(sampleMessage())
            #expect(try await server.nextMessage().isTLS)
        }
    }

    @Test("a certificate the client does not trust fails the handshake")
    func untrustedCertificate() async throws {
        try await SMTPTestServer.with(.init(tls: .test)) { server in
            let client = makeClient(server, security: .startTLS, trustsTestCertificate: false)
            let error = await messagingError { try await client.send(sampleMessage()) }
            #expect(error?.description.contains("TLS") == true)
            #expect(server.messages.isEmpty)
        }
    }

    @Test("a wrong password fails with the server's 535 reply")
    func wrongPassword() async throws {
        try await SMTPTestServer.with(.init(tls: .test, credentials: Self.credentials)) { server in
            let client = makeClient(server, security: .startTLS, username: "mailer", password: "wrong")
            let error = await messagingError { try await client.send(sampleMessage()) }
            #expect(error?.description.contains("535") == true)
            #expect(server.messages.isEmpty)
        }
    }

    @Test("credentials for a server that offers no AUTH fail with a clear error")
    func noAuthOffered() async throws {
        try await SMTPTestServer.with { server in
            let error = await messagingError { try await makeClient(server, username: "mailer", password: "x").send(sampleMessage()) }
            #expect(error?.description.contains("offers no AUTH PLAIN or LOGIN") == true)
        }
    }

    @Test("a trusted certificate that is not PEM fails before connecting")
    func invalidTrustedCertificate() async throws {
        let configuration = SMTPConfiguration(
            host: "127.0.0.1", port: 1, security: .tls, tls: SMTPTLSOptions(trustedCertificatesPEM: ["not a certificate"])
        )
        let error = await messagingError { try await SMTPClient(configuration: configuration).send(sampleMessage()) }
        #expect(error?.description.contains("not valid PEM") == true)
    }
}
