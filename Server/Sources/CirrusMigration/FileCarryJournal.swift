import Foundation

/// The keys whose contents an import already carried: an append-only file with one key per line, read once when the
/// journal opens and written (handed to the operating system) after every file, so that a re-run after a crash skips
/// what was done. A last line without its newline (the process died while writing it) is cut off when the journal
/// opens, so it counts as not done and the next entry starts on a line of its own.
actor FileCarryJournal {
    let url: URL
    private var done: Set<String>
    private let handle: FileHandle

    /// Opens (or creates) the journal at `url`.
    /// - Throws: ``FileCarryJournal/Failure`` when the file cannot be created, read or written.
    init(url: URL) throws {
        self.url = url
        let manager = FileManager.default
        if !manager.fileExists(atPath: url.path) {
            try? manager.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            guard manager.createFile(atPath: url.path, contents: nil) else {
                throw Failure(message: "cannot create the file journal \(url.path)")
            }
        }
        let handle: FileHandle
        let contents: Data
        do {
            handle = try FileHandle(forUpdating: url)
            contents = try handle.readToEnd() ?? Data()
        } catch {
            throw Failure(message: "cannot read the file journal \(url.path): \(error)")
        }
        let (keys, complete) = Self.parse(Array(contents))
        do {
            if complete < contents.count { try handle.truncate(atOffset: UInt64(complete)) }
            try handle.seekToEnd()
        } catch {
            throw Failure(message: "cannot repair the file journal \(url.path): \(error)")
        }
        self.done = keys
        self.handle = handle
    }

    /// The keys of the complete lines of `bytes`, and the length of those lines (where a torn last line starts).
    static func parse(_ bytes: [UInt8]) -> (keys: Set<String>, complete: Int) {
        var keys: Set<String> = []
        var start = 0
        for index in bytes.indices where bytes[index] == UInt8(ascii: "\n") {
            let line = String(decoding: bytes[start..<index], as: UTF8.self)
            if !line.isEmpty { keys.insert(line) }
            start = index + 1
        }
        return (keys, start)
    }

    func contains(_ key: String) -> Bool {
        done.contains(key)
    }

    /// Records `key` as done. Keys with a line break (never valid storage keys) are kept in memory only.
    /// - Throws: ``FileCarryJournal/Failure`` when the line cannot be written.
    func record(_ key: String) throws {
        guard done.insert(key).inserted, !key.contains(where: \.isNewline) else { return }
        do {
            try handle.write(contentsOf: Array((key + "\n").utf8))
        } catch {
            throw Failure(message: "cannot write to the file journal \(url.path): \(error)")
        }
    }

    /// The journal file could not be used.
    struct Failure: Error, CustomStringConvertible {
        let message: String
        var description: String { message }
    }
}
