/// Where file contents live: the local disk under the data directory by default, or an S3-compatible object store.
///
/// Keys are chosen by the server (`[A-Za-z0-9._-]`, at most 200 characters), never by clients, and a key is written
/// once: a file's content does not change after its upload.
public protocol FileStorage: Sendable {
    /// A short name for logs: `local`, `s3`.
    var name: String { get }

    /// Stores `content` under `key`, complete or not at all: a reader never sees part of it, even after a crash.
    /// A key is written once: when it holds a content already (or a concurrent write of it wins), nothing changes.
    /// - Throws: ``FileStorageError/alreadyExists(_:)`` when the key holds a content, ``FileStorageError/failed(_:)``
    ///   when the content could not be stored.
    func write(_ content: [UInt8], key: String, mimeType: String) async throws

    /// The content under `key`, or only the bytes of `range` within it (clamped to the content), or `nil` when there
    /// is no such content.
    func read(key: String, range: Range<Int>?) async throws -> FileContent?

    /// Removes the content under `key`; nothing happens when there is none.
    func delete(key: String) async throws

    /// A URL clients can download the content of `key` from directly, or `nil` when the server serves it itself.
    func downloadURL(key: String) throws -> String?
}

extension FileStorage {
    /// The server serves the contents itself.
    public func downloadURL(key: String) throws -> String? { nil }
}

/// Content read from a file storage.
public struct FileContent: Sendable, Hashable {
    /// The bytes read: the whole content, or the requested range.
    public var bytes: [UInt8]
    /// The position of `bytes` in the whole content.
    public var offset: Int
    /// The size of the whole content.
    public var totalSize: Int

    public init(bytes: [UInt8], offset: Int, totalSize: Int) {
        self.bytes = bytes
        self.offset = offset
        self.totalSize = totalSize
    }
}

/// Why a file storage failed; the text is for logs.
public enum FileStorageError: Error, Sendable, Equatable {
    case invalidKey(String)
    case failed(String)
    /// The key holds a content already, which a write never replaces.
    case alreadyExists(String)
}

/// The one rule of keys, shared by every storage: `[A-Za-z0-9._-]`, 1 to 200 characters, not `.` or `..`.
package enum FileKey {
    package static func isValid(_ key: String) -> Bool {
        (1...200).contains(key.utf8.count) && key != "." && key != ".."
            && key.utf8.allSatisfy { ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x41 && $0 <= 0x5A) || ($0 >= 0x61 && $0 <= 0x7A) || $0 == 0x2E || $0 == 0x5F || $0 == 0x2D }
    }
}
