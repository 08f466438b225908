import CirrusTesting
import Foundation

/// Runs of the `cirrus` executable: a ``ChildProcess`` whose environment keeps the parent's variables except the
/// `CIRRUS_*` ones, and adds the given ones.
enum CirrusProcess {
    typealias Termination = ChildProcess.Termination

    /// Starts `cirrus` with exactly `arguments`, through `wrapper` (a command that runs it, such as `prlimit … --`) when
    /// one is given.
    /// - Throws: when the executable is missing or cannot be started.
    static func start(arguments: [String], environment: [String: String], logPath: String, wrapper: [String] = []) throws -> ChildProcess {
        // LiveQuery's WebSocket on a free port unless a test says otherwise: its default (the API's port plus one) may be
        // another test's.
        let variables = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("CIRRUS_") }
            .merging(["CIRRUS_LIVEQUERY_PORT": "0"]) { $1 }.merging(environment) { $1 }
        let command = wrapper + [try CirrusExecutable.path()] + arguments
        return try ChildProcess(executable: command[0], arguments: Array(command.dropFirst()), environment: variables, logPath: logPath)
    }
}
