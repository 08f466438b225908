package import CirrusStorage
import Foundation

/// File contents as files in one directory (by default `<data dir>/files`), one file per key.
///
/// A write goes to a temporary file in the same directory, is flushed to disk, and is then linked to its key (which
/// fails when the key exists), so a reader sees the whole content or nothing, also after a crash, and a content is
/// never replaced; leftover temporary files are removed at start.
package struct LocalFileStorage: FileStorage {
    package let directory: String
    package var name: String { "local" }

    static let temporaryPrefix = ".upload-"

    /// Opens (creating if needed) the directory and removes temporary files a crash left behind.
    /// - Throws: ``FileStorageError/failed(_:)`` when the directory cannot be created.
    package init(directory: String) throws {
        self.directory = directory
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            for entry in try FileManager.default.contentsOfDirectory(atPath: directory) where entry.hasPrefix(Self.temporaryPrefix) {
                try? FileManager.default.removeItem(atPath: path(entry))
            }
        } catch {
            throw FileStorageError.failed("cannot open the file directory \(directory): \(error)")
        }
    }

    package func write(_ content: [UInt8], key: String, mimeType: String) async throws {
        let target = try checkedPath(key)
        let temporary = path(Self.temporaryPrefix + UUID().uuidString)
        do {
            guard FileManager.default.createFile(atPath: temporary, contents: nil) else {
                throw FileStorageError.failed("cannot create \(temporary)")
            }
            let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: temporary))
            defer { try? handle.close() }
            try handle.write(contentsOf: content)
            try handle.synchronize()
            // A hard link is created only if the key is free, atomically: of two writes of one key exactly one lands,
            // and a stored content is never replaced (rename would replace it).
            guard link(temporary, target) == 0 else {
                throw errno == EEXIST ? FileStorageError.alreadyExists(key) : FileStorageError.failed("cannot link \(key): errno \(errno)")
            }
            try? FileManager.default.removeItem(atPath: temporary)
        } catch {
            try? FileManager.default.removeItem(atPath: temporary)
            throw error as? FileStorageError ?? FileStorageError.failed("cannot write \(key): \(error)")
        }
    }

    package func read(key: String, range: Range<Int>?) async throws -> FileContent? {
        let file = try checkedPath(key)
        guard let handle = FileHandle(forReadingAtPath: file) else { return nil }
        defer { try? handle.close() }
        do {
            let total = Int(try handle.seekToEnd())
            let start = min(max(range?.lowerBound ?? 0, 0), total)
            let end = min(range?.upperBound ?? total, total)
            try handle.seek(toOffset: UInt64(start))
            let data = end > start ? try handle.read(upToCount: end - start) ?? Data() : Data()
            return FileContent(bytes: Array(data), offset: start, totalSize: total)
        } catch {
            throw FileStorageError.failed("cannot read \(key): \(error)")
        }
    }

    package func delete(key: String) async throws {
        let file = try checkedPath(key)
        guard FileManager.default.fileExists(atPath: file) else { return }
        do {
            try FileManager.default.removeItem(atPath: file)
        } catch {
            throw FileStorageError.failed("cannot delete \(key): \(error)")
        }
    }

    private func checkedPath(_ key: String) throws(FileStorageError) -> String {
        guard FileKey.isValid(key), !key.hasPrefix(Self.temporaryPrefix) else { throw FileStorageError.invalidKey(key) }
        return path(key)
    }

    private func path(_ entry: String) -> String {
        directory + "/" + entry
    }
}
