package import CirrusServer
package import CirrusServices
package import CirrusStorage
import Foundation
import Hummingbird
import Logging
import ServiceLifecycle

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An in-process server listening on a loopback port, for clients that need real HTTP (URLSession, the Swift SDK).
///
/// It is built exactly like ``TestServer/with(maximumObjectSize:maximumBodySize:accounts:configure:_:)`` builds its
/// server, on a fresh data directory, but it serves sockets. The port is chosen before the server is built, so that
/// the URLs the server hands out (file upload URLs, file URLs, links in e-mails) point at it.
package struct LiveTestServer: Sendable {
    /// `http://127.0.0.1:<port>`, without a trailing slash.
    package let baseURL: String
    /// The keys of the app (``TestServer/keys``).
    package let keys: AppKeys
    /// The server's store, for checks that no endpoint exposes.
    package let store: any StorageAdapter
    /// The e-mails the server sent.
    package let mailOutbox: OutboxMailSender
    /// The SMS messages the server sent.
    package let smsOutbox: OutboxSMSSender

    /// Runs `body` against a new server listening on `127.0.0.1` at a free port, then stops the server, closes its
    /// store and removes its data directory.
    ///
    /// The port is free when it is chosen but is bound only when the server starts, so another process (or test)
    /// may take it in between; a server that cannot listen is built again on another port, up to five times.
    /// - Parameters:
    ///   - accounts: password, session and lock-out settings; by default a cheap password hash.
    ///   - configure: changes to the server configuration, made after the outboxes were set.
    package static func with<T: Sendable>(
        accounts: AccountSettings = TestServer.fastAccounts, configure: @Sendable (inout ServerConfiguration) -> Void = { _ in },
        _ body: @Sendable (LiveTestServer) async throws -> T
    ) async throws -> T {
        var attempt = 1
        while true {
            do {
                return try await attemptWith(accounts: accounts, configure: configure, body)
            } catch is NotListening where attempt < 5 {
                attempt += 1
            }
        }
    }

    /// One server on one port.
    /// - Throws: ``NotListening`` when the server stopped before it listened (its port was taken).
    private static func attemptWith<T: Sendable>(
        accounts: AccountSettings, configure: @Sendable (inout ServerConfiguration) -> Void, _ body: @Sendable (LiveTestServer) async throws -> T
    ) async throws -> T {
        try await withLoopbackConfiguration(accounts: accounts) { configuration in
            var configuration = configuration
            let mailOutbox = OutboxMailSender()
            let smsOutbox = OutboxSMSSender()
            configuration.mailSender = mailOutbox
            configuration.smsSender = smsOutbox
            configure(&configuration)
            let server = try await CirrusServer.build(configuration)
            let live = LiveTestServer(
                baseURL: "http://127.0.0.1:\(configuration.port)", keys: server.keys, store: server.store, mailOutbox: mailOutbox,
                smsOutbox: smsOutbox
            )
            return try await serve(server, live: live, body)
        }
    }

    /// Runs `body` with the configuration of a server on a free loopback port, a fresh data directory (removed
    /// afterwards) and the test store's database.
    static func withLoopbackConfiguration<T: Sendable>(
        accounts: AccountSettings = TestServer.fastAccounts, _ body: @Sendable (ServerConfiguration) async throws -> T
    ) async throws -> T {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let port = try FreeLoopbackPort.next()
        return try await TestStore.withDatabase { databaseURL in
            var configuration = ServerConfiguration(
                host: "127.0.0.1", port: port, dataDirectory: directory.path, databaseURL: databaseURL, keys: TestServer.keys,
                logLevel: .warning, accounts: accounts
            )
            // LiveQuery's WebSocket on a free port: servers of tests running at once must not share one.
            configuration.liveQuery.port = 0
            // Debug builds of the whole suite on a busy machine are slow: the request deadline is for the tests of it.
            configuration.transport.requestTimeout = TestServer.requestTimeout
            return try await body(configuration)
        }
    }

    /// The server stopped before it listened.
    struct NotListening: Error, CustomStringConvertible {
        let underlying: (any Error)?

        var description: String { "the live test server stopped before it listened: \(underlying.map { "\($0)" } ?? "no error")" }
    }

    /// Runs the application until `body` has finished; `body` starts once the server listens.
    private static func serve<T: Sendable>(
        _ server: CirrusServer, live: LiveTestServer, _ body: @Sendable (LiveTestServer) async throws -> T
    ) async throws -> T {
        let running = try await RunningServer.start(server)
        let result: Result<T, any Error>
        do {
            result = .success(try await body(live))
        } catch {
            result = .failure(error)
        }
        try await running.stop()
        return try result.get()
    }
}

/// A built server running as a service group, from the moment it listens until ``stop()``.
struct RunningServer: Sendable {
    let services: ServiceGroup
    let task: Task<Void, any Error>

    /// Runs `server` and returns once it listens.
    /// - Throws: ``LiveTestServer/NotListening`` when it stopped before (its port was taken).
    static func start(_ server: CirrusServer) async throws -> RunningServer {
        let (listening, signal) = AsyncStream<Bool>.makeStream()
        let application = server.application { _ in signal.yield(true) }
        let services = ServiceGroup(configuration: .init(services: [application], logger: server.application.logger))
        let task = Task {
            defer { signal.finish() }
            try await services.run()
        }
        var started = false
        for await flag in listening {
            started = flag
            break
        }
        guard started else {
            switch await task.result {
            case .success: throw LiveTestServer.NotListening(underlying: nil)
            case .failure(let error): throw LiveTestServer.NotListening(underlying: error)
            }
        }
        return RunningServer(services: services, task: task)
    }

    /// Shuts the server down gracefully and returns once its port is closed and its store released.
    func stop() async throws {
        await services.triggerGracefulShutdown()
        try await task.value
    }
}

/// A failure to start the live test server.
package struct LiveTestServerError: Error, CustomStringConvertible {
    package let description: String
}

/// Finds a TCP port that is free on the loopback interface.
enum FreeLoopbackPort {
    /// A random port between 20000 and 59999 that can be bound right now (released again), or, after a few tries,
    /// one the kernel picks. Random ports make two tests starting together unlikely to pick the same one.
    static func next() throws -> Int {
        for _ in 0..<20 {
            let port = Int.random(in: 20_000..<60_000)
            if (try? bound(port: port)) != nil { return port }
        }
        return try bound(port: 0)
    }

    /// A port bound for the rest of the process and never listened on: a connection to it is refused, and no server
    /// (of another test) can take it meanwhile, as one can a port that was free a moment ago.
    static func refusing() throws -> Int {
        try bound(port: 0, keep: true)
    }

    /// Binds `port` (0: any) on 127.0.0.1, releases it unless `keep`, and returns the port bound.
    private static func bound(port: Int, keep: Bool = false) throws -> Int {
        #if canImport(Glibc)
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        let descriptor = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard descriptor >= 0 else { throw LiveTestServerError(description: "socket() failed: errno \(errno)") }
        defer { if !keep { close(descriptor) } }
        var address = sockaddr_in()
        #if canImport(Darwin)
        address.sin_len = UInt8(MemoryLayout<sockaddr_in>.size)
        #endif
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        _ = inet_pton(AF_INET, "127.0.0.1", &address.sin_addr)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let named = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, length) == 0 ? getsockname(descriptor, $0, &length) : -1
            }
        }
        guard named == 0 else { throw LiveTestServerError(description: "bind() failed: errno \(errno)") }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}
