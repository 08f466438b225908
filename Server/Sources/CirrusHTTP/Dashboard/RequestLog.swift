import CirrusModel
import Foundation
import Synchronization

/// The most recent requests this instance answered, for the console's request log: a ring of fixed size, so it never
/// grows, written by every request with one short lock. Each instance keeps its own.
package final class RequestLog: Sendable {
    /// One answered request. The path (with its query) is cut at ``maximumPathLength``; no header or body is kept, and
    /// credentials in the query are blanked when the log is read (``shown(_:)``).
    struct Entry: Sendable {
        var time: Timestamp
        var method: String
        var path: String
        var dialect: Dialect?
        var status: Int
        /// The error code of the reply, in its dialect.
        var code: Int?
        var milliseconds: Double
        var client: ClientAddress?
        /// `master`, `user`, `client` (the app key alone), or `console` for the console's own API requests.
        var caller: String?
    }

    /// What a request learns about itself while it is answered, kept where ``CirrusResponder`` can fill it in.
    final class Trace: Sendable {
        private let state = Mutex<(dialect: Dialect?, code: Int?, caller: String?, route: String?)>((nil, nil, nil, nil))

        var dialect: Dialect? {
            get { state.withLock { $0.dialect } }
            set { state.withLock { $0.dialect = newValue } }
        }
        var code: Int? {
            get { state.withLock { $0.code } }
            set { state.withLock { $0.code = newValue } }
        }
        var caller: String? {
            get { state.withLock { $0.caller } }
            set { state.withLock { $0.caller = newValue } }
        }
        /// The endpoint's path pattern (`classes/:className`), for the metrics.
        var route: String? {
            get { state.withLock { $0.route } }
            set { state.withLock { $0.route = newValue } }
        }
    }

    /// The trace of the request being answered, if it is being logged.
    @TaskLocal static var trace: Trace?
    /// Who signed in to the console, while the console's API request is answered.
    @TaskLocal static var console: String?

    let capacity: Int
    /// A request at least this slow is marked slow.
    let slowMilliseconds: Double
    static let maximumPathLength = 512
    private let ring: Mutex<(entries: [Entry], next: Int)>
    /// The file every entry is also written to, if any.
    let file: RequestLogFile?

    package init(capacity: Int = 1000, slowMilliseconds: Double = 500, file: RequestLogFile? = nil) {
        self.capacity = max(1, capacity)
        self.slowMilliseconds = slowMilliseconds
        self.file = file
        ring = Mutex(([], 0))
    }

    /// A request's path and query as the log shows it: the value of every query parameter that may carry a
    /// credential (a name holding `token`, `sign`, `session`, `key`, `password`, `secret`, `code` or `expires`, like
    /// the token of an e-mailed link, an upload's or a signed download's) is replaced by `•••`. Done when the log is
    /// read, not on every request.
    static func shown(_ target: String) -> String {
        guard let mark = target.firstIndex(of: "?") else { return target }
        let pairs = target[target.index(after: mark)...].split(separator: "&", omittingEmptySubsequences: false).map { pair -> String in
            let name = pair.split(separator: "=", maxSplits: 1).first.map(String.init) ?? ""
            let lower = (name.removingPercentEncoding ?? name).lowercased()
            guard pair.contains("="), sensitive.contains(where: lower.contains) else { return String(pair) }
            return name + "=•••"
        }
        return target[..<mark] + "?" + pairs.joined(separator: "&")
    }

    static let sensitive = ["token", "sign", "session", "key", "password", "secret", "code", "expires"]

    func record(_ entry: Entry) {
        var entry = entry
        if entry.path.utf8.count > Self.maximumPathLength { entry.path = String(entry.path.utf8.prefix(Self.maximumPathLength)) ?? "" }
        ring.withLock { ring in
            if ring.entries.count < capacity {
                ring.entries.append(entry)
            } else {
                ring.entries[ring.next] = entry
            }
            ring.next = (ring.next + 1) % capacity
        }
        file?.enqueue(entry)
    }

    /// The entries, newest first.
    func entries() -> [Entry] {
        let (entries, next) = ring.withLock { ($0.entries, $0.next) }
        guard entries.count == capacity else { return entries.reversed() }
        return Array((entries[next...] + entries[..<next]).reversed())
    }

    /// The newest entries that pass a filter given as query parameters: `status` (`error`, `4xx`, `5xx` or a code),
    /// `path` (a part of it), `method`, `dialect`, `slow` (`true`: at least ``slowMilliseconds``), `limit` (default
    /// 200), from the ring or with `source=file` from the file.
    /// - Throws: ``APIError`` for `source=file` when no file is written.
    func reply(query: [String: String]) throws -> JSON {
        let fromFile = query["source"] == "file"
        if fromFile, file == nil { throw APIError(.notFound, "No request log file is written: start cirrus serve with --request-log <file>.") }
        let limit = min(max(Int(query["limit"] ?? "") ?? 200, 1), fromFile ? 5000 : capacity)
        let path = query["path"].flatMap { $0.isEmpty ? nil : $0 }
        var results: [JSON] = []
        for entry in (fromFile ? file?.entries() ?? [] : entries()).lazy.map(\.blanked) where results.count < limit {
            if let status = query["status"], !status.isEmpty, !Self.matches(entry.status, status) { continue }
            if let path, !entry.path.contains(path) { continue }
            if let method = query["method"], !method.isEmpty, method.uppercased() != entry.method { continue }
            if let dialect = query["dialect"], !dialect.isEmpty, dialect != entry.dialect?.rawValue { continue }
            if query["slow"] == "true", entry.milliseconds < slowMilliseconds { continue }
            results.append(describe(entry))
        }
        var reply: [String: JSON] = ["results": .array(results), "capacity": .int(Int64(capacity)), "slowMilliseconds": .double(slowMilliseconds)]
        if let file { reply["file"] = .string(file.path) }
        return .object(reply)
    }

    private func describe(_ entry: Entry) -> JSON {
        var members = entry.line
        members["time"] = .date(entry.time)
        members["slow"] = .bool(entry.milliseconds >= slowMilliseconds)
        return .object(members)
    }

    static func matches(_ status: Int, _ filter: String) -> Bool {
        switch filter {
        case "error": status >= 400
        case "4xx": (400..<500).contains(status)
        case "5xx": status >= 500
        default: Int(filter) == status
        }
    }
}
