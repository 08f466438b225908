import Foundation

/// A stream of bytes read in chunks: a file, a gzip decompression of one, or one member of a tar archive.
/// Reading is synchronous (an import is a command-line job that reads one thing at a time); sources are used by one
/// task at a time.
protocol ByteSource: AnyObject {
    /// Up to `max` bytes; an empty array at the end.
    func read(max: Int) throws -> [UInt8]
}

/// A file read in chunks; counts the bytes read so far, which drives the progress estimate.
final class FileByteSource: ByteSource {
    private let handle: FileHandle
    private(set) var bytesRead: Int64 = 0

    init(path: String) throws {
        guard let handle = FileHandle(forReadingAtPath: path) else { throw ImportError.unreadable(path) }
        self.handle = handle
    }

    deinit { try? handle.close() }

    func read(max: Int) throws -> [UInt8] {
        let data = try handle.read(upToCount: max) ?? Data()
        bytesRead += Int64(data.count)
        return [UInt8](data)
    }
}

/// Reads all of a source, refusing more than `limit` bytes.
func readAll(_ source: any ByteSource, limit: Int, name: String) throws -> [UInt8] {
    var bytes: [UInt8] = []
    while true {
        let chunk = try source.read(max: 1 << 20)
        if chunk.isEmpty { return bytes }
        bytes.append(contentsOf: chunk)
        if bytes.count > limit { throw ImportError.documentTooLarge(name, limit: limit) }
    }
}
