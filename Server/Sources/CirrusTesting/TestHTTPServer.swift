import Hummingbird
import HummingbirdCore
import Logging
import ServiceLifecycle

/// Runs a Hummingbird router as a test server on a port of its own on `127.0.0.1`, for the stand-ins of third-party
/// services (log-in providers, APNs, FCM).
enum TestHTTPServer {
    /// Serves `router` with `server` (plain HTTP/1.1 by default) while `body` runs with the port, then stops.
    static func run<T: Sendable>(
        router: Router<BasicRequestContext>, server: HTTPServerBuilder = .http1(), _ body: @Sendable (Int) async throws -> T
    ) async throws -> T {
        let (ports, signal) = AsyncStream<Int>.makeStream()
        var logger = Logger(label: "cirrus.tests.stand-in")
        logger.logLevel = .critical
        let application = Application(
            router: router, server: server, configuration: .init(address: .hostname("127.0.0.1", port: 0)),
            onServerRunning: { signal.yield($0.localAddress?.port ?? 0) }, logger: logger
        )
        let services = ServiceGroup(configuration: .init(services: [application], logger: logger))
        return try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                defer { signal.finish() }
                try await services.run()
            }
            var port = 0
            for await bound in ports {
                port = bound
                break
            }
            guard port > 0 else { throw LiveTestServerError(description: "a test server did not listen") }
            let result: Result<T, any Error>
            do {
                result = .success(try await body(port))
            } catch {
                result = .failure(error)
            }
            await services.triggerGracefulShutdown()
            group.cancelAll()
            try? await group.waitForAll()
            return try result.get()
        }
    }
}
