import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One run of the `cirrus` executable as a child process, its stdout and stderr captured in a file.
final class CirrusProcess: @unchecked Sendable {
    /// Foundation's `Process.run()` on Linux is not safe to call from several threads at once (concurrent launches
    /// from parallel tests crashed in its argument and environment copying), so every launch takes this lock.
    private static let launchLock = NSLock()

    private let process: Process
    /// The file that receives both stdout and stderr.
    let logPath: String

    /// Starts `cirrus` with exactly `arguments` and an environment without the parent's `CIRRUS_*` variables
    /// except those in `environment`.
    /// - Throws: when the executable is missing or cannot be started.
    init(arguments: [String], environment: [String: String], logPath: String) throws {
        self.logPath = logPath
        guard FileManager.default.createFile(atPath: logPath, contents: nil) else {
            throw LiveTestError(description: "Cannot create the log file \(logPath).")
        }
        let log = try FileHandle(forWritingTo: URL(fileURLWithPath: logPath))
        process = Process()
        process.executableURL = URL(fileURLWithPath: try CirrusExecutable.path())
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("CIRRUS_") }
            .merging(environment) { $1 }
        process.standardOutput = log
        process.standardError = log
        process.standardInput = FileHandle.nullDevice
        try Self.launchLock.withLock { try process.run() }
        try log.close()
    }

    /// Everything the process has printed so far.
    var output: String {
        (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? ""
    }

    var isRunning: Bool { process.isRunning }

    /// Sends `signal` (for example `SIGTERM` or `SIGKILL`) to the process.
    func send(_ signal: Int32) {
        if process.isRunning { kill(process.processIdentifier, signal) }
    }

    /// Waits for the process to end and returns how it ended.
    /// - Throws: when it is still running after `timeout`.
    @discardableResult
    func waitForExit(timeout: Duration = .seconds(60)) async throws -> Termination {
        let deadline = ContinuousClock.now + timeout
        while process.isRunning {
            guard ContinuousClock.now < deadline else {
                throw LiveTestError(description: "cirrus did not exit within \(timeout). Output:\n\(output)")
            }
            try await Task.sleep(for: .milliseconds(20))
        }
        return process.terminationReason == .exit ? .exited(process.terminationStatus) : .signalled(process.terminationStatus)
    }

    /// How a process ended.
    enum Termination: Equatable {
        /// It returned this exit status.
        case exited(Int32)
        /// It was ended by this signal.
        case signalled(Int32)
    }
}
