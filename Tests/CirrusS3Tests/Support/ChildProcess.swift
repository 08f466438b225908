import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A child process started with `posix_spawn`, its stdout and stderr going to a log file.
///
/// Not Foundation's `Process`: `Process.run()` in this toolchain (Swift 6.3.1) crashed the test process now and then
/// while scanning `/proc/self/fd` (swift-corelibs-foundation#5472); the live tests start `cirrus` the same way.
final class ChildProcess: @unchecked Sendable {
    let logPath: String
    let processIdentifier: pid_t
    private let lock = NSLock()
    /// The `waitpid` status once the child has been reaped.
    private var status: Int32?

    /// Starts `executable` with `arguments`, stdin from `/dev/null`, no other descriptor of this process.
    /// - Throws: when the log file cannot be created or `posix_spawn` fails.
    init(executable: String, arguments: [String], logPath: String) throws {
        self.logPath = logPath
        let log = open(logPath, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard log >= 0 else { throw MotoServerError("cannot create the log file \(logPath): errno \(errno)") }
        defer { close(log) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, log, 1)
        posix_spawn_file_actions_adddup2(&actions, log, 2)
        Self.closeFrom(3, in: &actions)
        var pid: pid_t = 0
        let environment = ProcessInfo.processInfo.environment.map { "\($0.key)=\($0.value)" }
        let result = Self.withCStrings([executable] + arguments) { argv in
            Self.withCStrings(environment) { envp in posix_spawn(&pid, executable, &actions, nil, argv, envp) }
        }
        guard result == 0 else { throw MotoServerError("posix_spawn of \(executable) failed: error \(result)") }
        processIdentifier = pid
    }

    /// Everything the process has printed so far.
    var output: String { (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? "" }

    /// Whether the child has not ended yet (reaping it once it has).
    var isRunning: Bool {
        lock.withLock {
            if status == nil {
                var raw: Int32 = 0
                if waitpid(processIdentifier, &raw, WNOHANG) == processIdentifier { status = raw }
            }
            return status == nil
        }
    }

    /// Sends SIGTERM, then SIGKILL if the process is still there after `grace`, and waits until it is gone.
    func stop(grace: Duration = .seconds(5)) async {
        guard isRunning else { return }
        kill(processIdentifier, SIGTERM)
        let deadline = ContinuousClock.now + grace
        while isRunning {
            if ContinuousClock.now > deadline { kill(processIdentifier, SIGKILL) }
            try? await Task.sleep(for: .milliseconds(20))
        }
    }

    /// Adds "close every descriptor from `lowest` up" (glibc 2.34+), looked up at run time as Glibc does not export it.
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
}
