import CirrusModel
import Foundation

/// A JSON-lines file that the development outbox appends one message to per line.
///
/// Each line is one JSON object with sorted keys, starting with nothing and ending with `\n`, so
/// `tail -f <data dir>/outbox/mail.jsonl` shows messages as they are sent.
struct OutboxFile: Sendable {
    /// The file's path.
    let path: String

    /// Appends `record` as one line, creating the file and its directory when they are missing.
    /// - Throws: ``MessagingError`` when the file cannot be written.
    func append(_ record: [String: JSON]) throws {
        var line = JSONWriter.bytes(.object(record))
        line.append(UInt8(ascii: "\n"))
        do {
            let handle = try openForAppending()
            defer { try? handle.close() }
            try handle.seekToEnd()
            try handle.write(contentsOf: line)
        } catch {
            throw MessagingError("outbox: cannot write \(path): \(error)")
        }
    }

    private func openForAppending() throws -> FileHandle {
        let manager = FileManager.default
        if !manager.fileExists(atPath: path) {
            let directory = (path as NSString).deletingLastPathComponent
            if !directory.isEmpty {
                try manager.createDirectory(atPath: directory, withIntermediateDirectories: true)
            }
            guard manager.createFile(atPath: path, contents: nil) else {
                throw MessagingError("cannot create the file")
            }
        }
        return try FileHandle(forWritingTo: URL(fileURLWithPath: path))
    }

    /// The current time as ISO 8601 with milliseconds (`2025-06-01T12:00:00.000Z`).
    static func timestamp(_ date: Date = Date()) -> JSON {
        .string(Date.ISO8601FormatStyle(includingFractionalSeconds: true).format(date))
    }
}
