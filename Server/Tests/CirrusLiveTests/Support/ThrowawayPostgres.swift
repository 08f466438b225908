import CirrusTesting
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A PostgreSQL server of its own for a fault test, which the test stops and restarts: made by `scripts/postgres` in
/// a directory of the test's sandbox, on a free loopback port.
struct ThrowawayPostgres: Sendable {
    let directory: String
    let port: Int
    let url: String

    /// Creates and starts the cluster.
    /// - Throws: when PostgreSQL's server programs are missing or the cluster does not start.
    static func start(in directory: String) async throws -> ThrowawayPostgres {
        // The server runs as the postgres user when the tests run as root: it must reach the directory.
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        chmod((directory as NSString).deletingLastPathComponent, 0o755)
        let port = try FreePort.next()
        let output = try await script(["start", directory, String(port)], logPath: directory + ".start.log")
        guard let url = output.split(separator: "\n").last(where: { $0.hasPrefix("postgres://") }) else {
            throw LiveTestError(description: "scripts/postgres start printed no URL:\n\(output)")
        }
        return ThrowawayPostgres(directory: directory, port: port, url: String(url))
    }

    /// Stops the server (fast shutdown: connections are terminated).
    func stop() async throws {
        _ = try await Self.script(["stop", directory], logPath: directory + ".stop.log")
    }

    /// Starts the stopped server again.
    func restart() async throws {
        _ = try await Self.script(["restart", directory, String(port)], logPath: directory + ".restart.log")
    }

    /// Runs `psql` with `arguments` against the server and returns its output (tuples only, unaligned).
    func psql(_ sql: String) async throws -> String {
        let process = try ChildProcess(
            executable: "/usr/bin/env", arguments: ["psql", url, "-X", "-tA", "-c", sql], environment: ProcessInfo.processInfo.environment,
            logPath: directory + ".psql.log"
        )
        guard try await process.waitForExit() == .exited(0) else { throw LiveTestError(description: "psql failed: \(process.output)") }
        return process.output.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Runs `scripts/postgres` and returns its output.
    private static func script(_ arguments: [String], logPath: String) async throws -> String {
        let script = repositoryRoot().appendingPathComponent("scripts/postgres").path
        let process = try ChildProcess(executable: "/bin/bash", arguments: [script] + arguments, environment: ProcessInfo.processInfo.environment, logPath: logPath)
        guard try await process.waitForExit(timeout: .seconds(120)) == .exited(0) else {
            throw LiveTestError(description: "scripts/postgres \(arguments.joined(separator: " ")) failed:\n\(process.output)")
        }
        return process.output
    }

    /// The repository's root, where scripts/ is: above the server package (`Server/Tests/CirrusLiveTests/Support`).
    private static func repositoryRoot() -> URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
    }
}
