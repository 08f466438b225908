import CirrusModel
import Foundation

extension LCApplication {
    /// How much the SDK logs: the LeanCloud SDKs' debug log (`[AVOSCloud setAllLogsEnabled:YES]`,
    /// `LCApplication.logLevel = .all`). Turn it off before release: at ``all`` the log holds what requests and replies
    /// carry (session tokens and request signatures are never logged).
    public enum LogLevel: Int, Sendable, Comparable {
        /// Nothing (the default).
        case off = 0
        /// Failed requests: the error and what was asked.
        case error = 1
        /// Every request and its reply's status, size and duration.
        case debug = 2
        /// Also the headers and the bodies (their first 4 096 bytes).
        case all = 3

        public static func < (lhs: LogLevel, rhs: LogLevel) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    /// Where log lines go: standard error unless set. Called with each line's level (``LogLevel/error``,
    /// ``LogLevel/debug`` or ``LogLevel/all``) and text.
    public typealias LogHandler = @Sendable (_ level: LogLevel, _ line: String) -> Void

    private static let logSettings = Lock()
    nonisolated(unsafe) private static var currentLogLevel = LogLevel.off
    nonisolated(unsafe) private static var currentLogHandler: LogHandler = { _, line in
        FileHandle.standardError.write(Data(("[Cirrus] " + line + "\n").utf8))
    }

    /// The SDK's log level, for every app of the process.
    public static var logLevel: LogLevel {
        get { logSettings.withLock { currentLogLevel } }
        set { logSettings.withLock { currentLogLevel = newValue } }
    }

    /// Receives the SDK's log lines, for every app of the process.
    public static var logHandler: LogHandler {
        get { logSettings.withLock { currentLogHandler } }
        set { logSettings.withLock { currentLogHandler = newValue } }
    }

    /// Logs `line` (made only when it will be written) at `level`.
    static func log(_ level: LogLevel, _ line: @autoclosure () -> String) {
        let (current, handler) = logSettings.withLock { (currentLogLevel, currentLogHandler) }
        guard level != .off, level <= current else { return }
        handler(level, line())
    }

    /// Sends a request through the app's transport, logging it and its reply as ``logLevel`` says: every request of the
    /// SDK goes through here.
    func send(_ request: TransportRequest) async throws -> TransportResponse {
        let transport = try requireSettings().configuration.transport
        let started = Date()
        let name = "\(request.method) \(request.url.absoluteString)"
        Self.log(.all, "→ \(name)\n" + Self.describe(headers: request.headers, body: request.body))
        do {
            let response = try await transport.send(request)
            let milliseconds = Int(Date().timeIntervalSince(started) * 1000)
            let summary = "← \(response.status) \(name) (\(response.body.count) bytes, \(milliseconds) ms)"
            Self.log(response.status >= 400 ? .error : .debug, summary)
            Self.log(.all, "← \(name)\n" + Self.describe(headers: response.headers, body: response.body))
            return response
        } catch {
            Self.log(.error, "✕ \(name): \(error)")
            throw error
        }
    }

    /// Headers (credentials masked) and the start of a body, one header a line.
    static func describe(headers: [String: String], body: Data?) -> String {
        let masked: Set<String> = ["x-lc-session", "x-lc-sign", "x-lc-key", "x-bmob-rest-api-key", "x-bmob-master-key", "x-parse-session-token", "authorization"]
        var lines = headers.sorted { $0.key < $1.key }.map { key, value in
            "  \(key): " + (masked.contains(key.lowercased()) ? "<\(value.count) characters>" : value)
        }
        if let body, !body.isEmpty {
            let shown = String(decoding: body.prefix(4096), as: UTF8.self)
            lines.append("  " + shown + (body.count > 4096 ? " … (\(body.count) bytes)" : ""))
        }
        return lines.joined(separator: "\n")
    }
}
