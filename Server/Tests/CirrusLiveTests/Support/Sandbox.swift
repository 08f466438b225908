import CirrusTesting
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A temporary directory for live tests and every `cirrus` process started in it; `with` ends the processes
/// and removes the directory whatever the test did.
final class Sandbox: @unchecked Sendable {
    /// The keys `startServer` passes unless told otherwise.
    static let keys = AppKeys(appId: "live-app-id", appKey: "live-app-key", masterKey: "live-master-key")

    let root: String
    private let lock = NSLock()
    private var processes: [ChildProcess] = []

    private init(root: String) {
        self.root = root
    }

    /// Runs `body` with a new sandbox, then kills what is still running and removes the directory.
    static func with<T: Sendable>(_ body: @Sendable (Sandbox) async throws -> T) async throws -> T {
        let directory = try TemporaryDirectory()
        let sandbox = Sandbox(root: directory.path)
        defer {
            sandbox.killAll()
            directory.remove()
        }
        return try await body(sandbox)
    }

    /// `<root>/<name>`, a path for a data directory or a file.
    func path(_ name: String) -> String {
        URL(fileURLWithPath: root).appendingPathComponent(name).path
    }

    /// The default data directory.
    var dataDirectory: String { path("data") }

    /// Starts `cirrus` with exactly these arguments and `CIRRUS_*` variables (through `wrapper` when given), logging
    /// to a new file.
    func launch(_ arguments: [String], environment: [String: String] = [:], wrapper: [String] = []) throws -> ChildProcess {
        try lock.withLock {
            let process = try CirrusProcess.start(
                arguments: arguments, environment: environment, logPath: path("cirrus-\(processes.count + 1).log"), wrapper: wrapper
            )
            processes.append(process)
            return process
        }
    }

    /// Starts another program the test needs (killed with the sandbox's processes), logging to a new file.
    func launchTool(_ executable: String, _ arguments: [String]) throws -> ChildProcess {
        try lock.withLock {
            let process = try ChildProcess(
                executable: executable, arguments: arguments, environment: ProcessInfo.processInfo.environment,
                logPath: path("tool-\(processes.count + 1).log")
            )
            processes.append(process)
            return process
        }
    }

    /// Starts `cirrus serve` on a free loopback port with `--data-dir`, the `keys` as flags (none: the server
    /// generates or reuses its own, read back from `keys.json`) and `extra` arguments, and waits until it answers.
    /// Tries another port when the chosen one was taken in between.
    func startServer(dataDirectory: String? = nil, keys: AppKeys? = Sandbox.keys, wrapper: [String] = [], extra: [String] = []) async throws -> LiveServer {
        let directory = dataDirectory ?? self.dataDirectory
        var keyArguments: [String] = []
        if let keys { keyArguments = ["--app-id", keys.appId, "--app-key", keys.appKey, "--master-key", keys.masterKey] }
        var attempt = 0
        while true {
            attempt += 1
            let port = try FreePort.next()
            let arguments = ["serve", "--host", "127.0.0.1", "--port", String(port), "--data-dir", directory] + keyArguments + extra
            let process = try launch(arguments, wrapper: wrapper)
            do {
                let serverKeys: AppKeys
                if let keys { serverKeys = keys } else { serverKeys = try await Self.storedKeys(in: directory, waitingFor: process) }
                return try await LiveServer.ready(process, host: "127.0.0.1", port: port, keys: serverKeys)
            } catch where attempt < 3 && process.output.contains("Address already in use") {
                continue
            }
        }
    }

    /// The keys in `<directory>/keys.json`, once the process has written them.
    static func storedKeys(in directory: String, waitingFor process: ChildProcess) async throws -> AppKeys {
        let file = URL(fileURLWithPath: directory).appendingPathComponent("keys.json").path
        let deadline = ContinuousClock.now + .seconds(60)
        while ContinuousClock.now < deadline {
            if let data = FileManager.default.contents(atPath: file), let json = try? JSONParser.parse(Array(data)),
                let appId = json["appId"]?.stringValue, let appKey = json["appKey"]?.stringValue,
                let masterKey = json["masterKey"]?.stringValue
            {
                return AppKeys(appId: appId, appKey: appKey, masterKey: masterKey, hookKey: json["hookKey"]?.stringValue)
            }
            guard process.isRunning else {
                throw LiveTestError(description: "cirrus exited before writing \(file). Output:\n\(process.output)")
            }
            try await Task.sleep(for: .milliseconds(50))
        }
        throw LiveTestError(description: "cirrus did not write \(file) within a minute. Output:\n\(process.output)")
    }

    private func killAll() {
        lock.withLock {
            for process in processes where process.isRunning { process.send(SIGKILL) }
        }
    }
}
