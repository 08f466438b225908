import CirrusModel
import NIOCore
import NIOPosix
import NIOSSL

/// A real SMTP server on `127.0.0.1` and an ephemeral port, for testing SMTP clients end to end.
///
/// It speaks EHLO/HELO, STARTTLS (with ``Options/tls``), implicit TLS, AUTH PLAIN and LOGIN (with
/// ``Options/credentials``), MAIL/RCPT/DATA, RSET, NOOP and QUIT, and records every accepted message before it
/// answers `250`, so a client's send has been recorded by the time it returns.
///
/// ```swift
/// try await SMTPTestServer.with(.init(tls: .test)) { server in
///     try await client(port: server.port).send(message)
///     let mail = try await server.nextMessage()
///     #expect(mail.isTLS)
/// }
/// ```
package final class SMTPTestServer: Sendable {
    /// What the server offers and refuses.
    package let options: Options
    /// The port the server listens on.
    package let port: Int
    private let channel: any Channel
    private let inbox: Inbox
    private let connections: Connections

    private init(options: Options, port: Int, channel: any Channel, inbox: Inbox, connections: Connections) {
        self.options = options
        self.port = port
        self.channel = channel
        self.inbox = inbox
        self.connections = connections
    }

    /// Starts a server; call ``stop()`` when done (or use ``with(_:_:)``).
    /// - Throws: when the TLS identity does not load or the socket cannot be bound.
    package static func start(_ options: Options = Options()) async throws -> SMTPTestServer {
        let tls = try options.tls.map(makeContext)
        let inbox = Inbox()
        let connections = Connections()
        let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                connections.add(channel)
                return channel.eventLoop.makeCompletedFuture {
                    let pipeline = channel.pipeline.syncOperations
                    if options.implicitTLS, let tls { try pipeline.addHandler(NIOSSLServerHandler(context: tls)) }
                    try pipeline.addHandler(ByteToMessageHandler(LineDecoder()))
                    try pipeline.addHandler(Handler(options: options, tls: tls, inbox: inbox))
                }
            }
            .bind(host: "127.0.0.1", port: 0).get()
        guard let port = channel.localAddress?.port else { throw IOError(errnoCode: 0, reason: "no local port") }
        return SMTPTestServer(options: options, port: port, channel: channel, inbox: inbox, connections: connections)
    }

    /// Runs `body` against a new server and stops the server afterwards, also when `body` throws.
    package static func with<T>(_ options: Options = Options(), _ body: (SMTPTestServer) async throws -> T) async throws -> T {
        let server = try await start(options)
        do {
            let result = try await body(server)
            await server.stop()
            return result
        } catch {
            await server.stop()
            throw error
        }
    }

    /// Stops listening and closes every open connection.
    package func stop() async {
        try? await channel.close()
        for connection in connections.open() {
            try? await connection.close()
        }
    }

    /// Every message accepted so far, oldest first.
    package var messages: [ReceivedMail] { inbox.all }

    /// The oldest message not returned yet, waiting up to `timeout` for one to arrive.
    /// - Throws: ``SMTPTestServerTimeout`` when none arrives in time.
    package func nextMessage(timeout: Duration = .seconds(10)) async throws -> ReceivedMail {
        try await withThrowingTaskGroup(of: ReceivedMail.self) { group in
            group.addTask { try await self.inbox.next() }
            group.addTask {
                try await Task.sleep(for: timeout)
                throw SMTPTestServerTimeout()
            }
            defer { group.cancelAll() }
            guard let mail = try await group.next() else { throw SMTPTestServerTimeout() }
            return mail
        }
    }

    private static func makeContext(_ identity: TLSIdentity) throws -> NIOSSLContext {
        let chain = try NIOSSLCertificate.fromPEMBytes(Array(identity.certificatePEM.utf8)).map { NIOSSLCertificateSource.certificate($0) }
        let key = try NIOSSLPrivateKey(bytes: Array(identity.privateKeyPEM.utf8), format: .pem)
        return try NIOSSLContext(configuration: .makeServerConfiguration(certificateChain: chain, privateKey: .privateKey(key)))
    }
}

/// No message arrived at an ``SMTPTestServer`` within the time given to `nextMessage(timeout:)`.
package struct SMTPTestServerTimeout: Error, Sendable {}
