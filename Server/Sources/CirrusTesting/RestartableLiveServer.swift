package import CirrusServer
import Foundation
import Logging

/// A live test server that a test stops and starts again on the same port, data directory and database: what a
/// client sees when its server goes away and comes back (the SDK's offline queue).
package final class RestartableLiveServer: @unchecked Sendable {
    /// `http://127.0.0.1:<port>`, the same across restarts.
    package let baseURL: String
    /// The app's keys (the test server's, the same across restarts).
    package let keys: AppKeys
    private let configuration: ServerConfiguration
    private let lock = NSLock()
    private var running: RunningServer?

    private init(configuration: ServerConfiguration) {
        self.configuration = configuration
        baseURL = "http://127.0.0.1:\(configuration.port)"
        keys = TestServer.keys
    }

    /// Runs `body` with a started server, stopping it afterwards (and removing its data).
    package static func with<T: Sendable>(
        configure: @Sendable (inout ServerConfiguration) -> Void = { _ in }, _ body: @Sendable (RestartableLiveServer) async throws -> T
    ) async throws -> T {
        try await LiveTestServer.withLoopbackConfiguration { configuration in
            var configuration = configuration
            configure(&configuration)
            let server = RestartableLiveServer(configuration: configuration)
            try await server.start()
            do {
                let result = try await body(server)
                try await server.stop()
                return result
            } catch {
                try? await server.stop()
                throw error
            }
        }
    }

    /// Whether the server is serving.
    package var isRunning: Bool { lock.withLock { running != nil } }

    /// Builds the server on its port, data directory and database, and returns once it listens.
    /// - Throws: when it does not listen (the port was taken meanwhile).
    package func start() async throws {
        guard !isRunning else { return }
        let started = try await RunningServer.start(try await CirrusServer.build(configuration))
        lock.withLock { running = started }
    }

    /// Shuts the server down gracefully and returns once its port is closed and its store released.
    package func stop() async throws {
        let current = lock.withLock { () -> RunningServer? in
            defer { running = nil }
            return running
        }
        try await current?.stop()
    }
}
