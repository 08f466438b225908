package import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A child process of a test (a `cirrus serve`, a moto server), its stdout and stderr captured in a file.
///
/// Started with `posix_spawn` rather than Foundation's `Process`: `Process.run()` in this toolchain (Swift 6.3.1)
/// over-reads a `dirent` while scanning `/proc/self/fd` and crashed the test process now and then
/// (swift-corelibs-foundation#5472). The child gets `/dev/null` as stdin, the log file as stdout and stderr, and
/// no other descriptor of the test process.
package final class ChildProcess: @unchecked Sendable {
    /// The file that receives both stdout and stderr.
    package let logPath: String
    package let processIdentifier: pid_t
    private let lock = NSLock()
    /// The `waitpid` status once the child has been reaped.
    private var status: Int32?

    /// How a process ended.
    package enum Termination: Equatable, Sendable {
        /// It returned this exit status.
        case exited(Int32)
        /// It was ended by this signal.
        case signalled(Int32)
    }

    /// Starts `executable` with `arguments` and exactly `environment`.
    /// - Throws: ``ChildProcessError`` when the log file cannot be created or `posix_spawn` fails.
    package init(executable: String, arguments: [String], environment: [String: String], logPath: String) throws {
        self.logPath = logPath
        let log = open(logPath, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard log >= 0 else { throw ChildProcessError(description: "Cannot create the log file \(logPath): errno \(errno).") }
        defer { close(log) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, log, 1)
        posix_spawn_file_actions_adddup2(&actions, log, 2)
        Self.closeFrom(3, in: &actions)
        var pid: pid_t = 0
        let result = Self.withCStrings([executable] + arguments) { argv in
            Self.withCStrings(environment.map { "\($0.key)=\($0.value)" }) { envp in posix_spawn(&pid, executable, &actions, nil, argv, envp) }
        }
        guard result == 0 else { throw ChildProcessError(description: "posix_spawn of \(executable) failed: error \(result).") }
        processIdentifier = pid
    }

    /// Adds "close every descriptor from `lowest` up" to `actions` (glibc 2.34+), found at run time because the
    /// Glibc module does not import it; without it the child inherits the descriptors not marked close-on-exec.
    private static func closeFrom(_ lowest: Int32, in actions: inout posix_spawn_file_actions_t) {
        #if os(Linux)
        typealias CloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addclosefrom_np") else { return }
        _ = unsafeBitCast(symbol, to: CloseFrom.self)(&actions, lowest)
        #endif
    }

    /// Calls `body` with a NULL-terminated C array of copies of `strings`, freed afterwards.
    private static func withCStrings<T>(_ strings: [String], _ body: ([UnsafeMutablePointer<CChar>?]) -> T) -> T {
        let copies = strings.map { strdup($0) } + [nil]
        defer { copies.forEach { free($0) } }
        return body(copies)
    }

    /// Everything the process has printed so far.
    package var output: String {
        (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? ""
    }

    /// Whether the child has not ended yet (reaping it once it has).
    package var isRunning: Bool { reapedStatus() == nil }

    /// The child's `waitpid` status if it has ended, reaping it the first time.
    private func reapedStatus() -> Int32? {
        lock.withLock {
            if let status { return status }
            var raw: Int32 = 0
            if waitpid(processIdentifier, &raw, WNOHANG) == processIdentifier { status = raw }
            return status
        }
    }

    /// Sends `signal` (for example `SIGTERM` or `SIGKILL`) to the process.
    package func send(_ signal: Int32) {
        if isRunning { kill(processIdentifier, signal) }
    }

    /// Waits for the process to end and returns how it ended.
    /// - Throws: ``ChildProcessError`` when it is still running after `timeout`.
    @discardableResult
    package func waitForExit(timeout: Duration = .seconds(60)) async throws -> Termination {
        let deadline = ContinuousClock.now + timeout
        while true {
            if let status = reapedStatus() {
                let signal = status & 0x7f
                return signal == 0 ? .exited((status >> 8) & 0xff) : .signalled(signal)
            }
            guard ContinuousClock.now < deadline else {
                throw ChildProcessError(description: "The process did not exit within \(timeout). Output:\n\(output)")
            }
            try await Task.sleep(for: .milliseconds(20))
        }
    }

    /// Sends SIGTERM, then SIGKILL if the process is still there after `grace`, and waits until it is gone.
    package func stop(grace: Duration = .seconds(5)) async {
        send(SIGTERM)
        if (try? await waitForExit(timeout: grace)) == nil {
            send(SIGKILL)
            _ = try? await waitForExit(timeout: .seconds(60))
        }
    }
}

/// Why a child process could not be started or did not end.
package struct ChildProcessError: Error, CustomStringConvertible, Sendable {
    package let description: String

    package init(description: String) {
        self.description = description
    }
}
