import CirrusTesting
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A running `cirrus serve` process and a client pointed at it.
struct LiveServer: Sendable {
    let process: ChildProcess
    let host: String
    let port: Int
    let client: LiveClient

    /// Waits until the server answers `GET /1.1/date` at `host:port`.
    /// - Throws: when the process exits first or the server does not answer within a minute; the error
    ///   carries the process output.
    static func ready(_ process: ChildProcess, host: String, port: Int, keys: AppKeys) async throws -> LiveServer {
        let server = LiveServer(process: process, host: host, port: port, client: LiveClient(host: host, port: port, keys: keys))
        let deadline = ContinuousClock.now + .seconds(60)
        while ContinuousClock.now < deadline {
            guard process.isRunning else {
                throw LiveTestError(description: "cirrus exited before it was ready. Output:\n\(process.output)")
            }
            if let reply = try? await server.client.send("GET", "/1.1/date", headers: [:]), reply.status == 200 {
                return server
            }
            try await Task.sleep(for: .milliseconds(50))
        }
        process.send(SIGKILL)
        throw LiveTestError(description: "cirrus did not answer on \(host):\(port) within a minute. Output:\n\(process.output)")
    }

    /// Ends the server with `SIGTERM` and waits for it to exit.
    @discardableResult
    func stop() async throws -> CirrusProcess.Termination {
        client.invalidate()
        process.send(SIGTERM)
        return try await process.waitForExit()
    }

    /// Ends the server with `SIGTERM` and expects it to exit with status 0; when it does not, the issue carries how it
    /// ended and the end of its output.
    func stopCleanly(sourceLocation: SourceLocation = #_sourceLocation) async throws {
        let termination = try await stop()
        #expect(
            termination == .exited(0), "cirrus ended with \(termination). Output:\n\(process.output.suffix(8000))",
            sourceLocation: sourceLocation
        )
    }

    /// Ends the server with `SIGKILL`, as a crash would, and waits for it to be gone.
    @discardableResult
    func crash() async throws -> CirrusProcess.Termination {
        client.invalidate()
        process.send(SIGKILL)
        return try await process.waitForExit()
    }
}
