import CirrusTesting
import Foundation

/// Runs of the `cirrus` executable: a ``ChildProcess`` whose environment keeps the parent's variables except the
/// `CIRRUS_*` ones, and adds the given ones.
enum CirrusProcess {
    typealias Termination = ChildProcess.Termination

    /// Starts `cirrus` with exactly `arguments`.
    /// - Throws: when the executable is missing or cannot be started.
    static func start(arguments: [String], environment: [String: String], logPath: String) throws -> ChildProcess {
        let variables = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("CIRRUS_") }.merging(environment) { $1 }
        return try ChildProcess(executable: try CirrusExecutable.path(), arguments: arguments, environment: variables, logPath: logPath)
    }
}
