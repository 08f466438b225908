import CirrusModel
import Foundation
import Synchronization

/// The request log on disk (`--request-log <file>`): one JSON line per answered request, as the console shows it
/// (credentials in the query blanked), appended in batches by ``run(every:)`` off the requests' path. When the file
/// passes ``maximumSize`` it becomes `<file>.1` (replacing the one before) and a new file starts; a file moved away by
/// another tool is simply started again. If the disk cannot keep up, at most ``maximumPending`` entries wait and the
/// ones beyond are counted in a line of their own.
package final class RequestLogFile: Sendable {
    package let path: String
    let maximumSize: Int64
    let maximumPending: Int
    private let pending = Mutex<(entries: [RequestLog.Entry], dropped: Int)>(([], 0))

    package init(path: String, maximumSize: Int64 = 64 * 1024 * 1024, maximumPending: Int = 10_000) {
        self.path = path
        self.maximumSize = maximumSize
        self.maximumPending = maximumPending
    }

    /// The path of the previous file.
    var previousPath: String { path + ".1" }

    /// Checks that the file can be written (at start-up, so a bad path fails there and not silently later).
    package func prepare() throws {
        let directory = (path as NSString).deletingLastPathComponent
        if !directory.isEmpty { try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true) }
        guard let handle = openForWriting() else { throw CocoaError(.fileWriteNoPermission, userInfo: [NSFilePathErrorKey: path]) }
        try handle.close()
    }

    /// The file, made if it is missing (moved away by another tool, or turned over).
    private func openForWriting() -> FileHandle? {
        guard FileManager.default.fileExists(atPath: path) || FileManager.default.createFile(atPath: path, contents: nil) else { return nil }
        return FileHandle(forWritingAtPath: path)
    }

    /// Queues an entry for the next write.
    func enqueue(_ entry: RequestLog.Entry) {
        pending.withLock { state in
            if state.entries.count < maximumPending { state.entries.append(entry) } else { state.dropped += 1 }
        }
    }

    /// Writes the queued entries every `interval` until the task is cancelled, then once more.
    package func run(every interval: Duration = .milliseconds(500)) async {
        while !Task.isCancelled {
            try? await Task.sleep(for: interval)
            flush()
        }
        flush()
    }

    /// Writes what is queued now.
    func flush() {
        let (entries, dropped) = pending.withLock { state in
            defer { state = ([], 0) }
            return (state.entries, state.dropped)
        }
        guard !entries.isEmpty || dropped > 0 else { return }
        var text = ""
        for entry in entries { text += JSONWriter.string(.object(entry.blanked.line)) + "\n" }
        if dropped > 0 { text += JSONWriter.string(["time": .string(Timestamp.now().iso8601), "dropped": .int(Int64(dropped))]) + "\n" }
        guard let handle = openForWriting() else { return }
        let size = (try? handle.seekToEnd()) ?? 0
        try? handle.write(contentsOf: Data(text.utf8))
        try? handle.close()
        if Int64(size) + Int64(text.utf8.count) > maximumSize {
            try? FileManager.default.removeItem(atPath: previousPath)
            try? FileManager.default.moveItem(atPath: path, toPath: previousPath)
        }
    }

    /// The newest entries of the files, newest first: the last `window` bytes of the file, and of the previous one
    /// when the file is shorter.
    func entries(window: Int = 4 * 1024 * 1024) -> [RequestLog.Entry] {
        var lines = Self.tail(path, bytes: window)
        let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
        if size < window { lines = Self.tail(previousPath, bytes: window - size) + lines }
        return lines.reversed().compactMap { line in
            guard case .object(let members)? = try? JSONParser.parse(Array(line.utf8)) else { return nil }
            return RequestLog.Entry(line: members)
        }
    }

    /// The whole lines among the last `bytes` bytes of a file.
    static func tail(_ path: String, bytes: Int) -> [Substring] {
        guard bytes > 0, let handle = FileHandle(forReadingAtPath: path) else { return [] }
        defer { try? handle.close() }
        let end = (try? handle.seekToEnd()) ?? 0
        let start = end > UInt64(bytes) ? end - UInt64(bytes) : 0
        guard (try? handle.seek(toOffset: start)) != nil, let data = try? handle.readToEnd() else { return [] }
        var lines = String(decoding: data, as: UTF8.self).split(separator: "\n")
        if start > 0, !lines.isEmpty { lines.removeFirst() }  // cut in the middle
        return lines
    }
}

extension RequestLog.Entry {
    /// The entry with the credentials in its query blanked (``RequestLog/shown(_:)``).
    var blanked: Self {
        var entry = self
        entry.path = RequestLog.shown(path)
        return entry
    }

    /// The entry as a line of the file (the time as ISO 8601 text), and the base of the console's reply.
    var line: [String: JSON] {
        var members: [String: JSON] = [
            "time": .string(time.iso8601), "method": .string(method), "path": .string(path), "status": .int(Int64(status)),
            "milliseconds": .double((milliseconds * 10).rounded() / 10),
        ]
        if let dialect { members["dialect"] = .string(dialect.rawValue) }
        if let code { members["code"] = .int(Int64(code)) }
        if let client = client?.text { members["client"] = .string(client) }
        if let caller { members["caller"] = .string(caller) }
        return members
    }

    /// An entry read back from a line; `nil` for a line that is not one (the count of dropped entries).
    init?(line members: [String: JSON]) {
        guard let time = members["time"]?.stringValue.flatMap({ Timestamp(parsing: $0) }), let method = members["method"]?.stringValue, let path = members["path"]?.stringValue,
            let status = members["status"]?.intValue, let milliseconds = members["milliseconds"]?.doubleValue
        else { return nil }
        self.init(
            time: time, method: method, path: path, dialect: members["dialect"]?.stringValue.flatMap(Dialect.init(rawValue:)),
            status: Int(status), code: members["code"]?.intValue.map(Int.init), milliseconds: milliseconds,
            client: members["client"]?.stringValue.map(ClientAddress.text), caller: members["caller"]?.stringValue
        )
    }
}
