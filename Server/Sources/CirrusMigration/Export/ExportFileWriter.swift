import CirrusModel
import Foundation

/// A file of an export being written: buffered appends to a new file, so that a class of any size takes a constant
/// amount of memory.
final class ExportFileWriter {
    private let handle: FileHandle
    private var buffer: [UInt8] = []
    private(set) var lines = 0
    static let bufferSize = 256 * 1024

    /// Creates (or truncates) the file at `path`.
    init(path: String) throws {
        guard FileManager.default.createFile(atPath: path, contents: nil) else {
            throw ExportError.cannotWrite(path)
        }
        handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        buffer.reserveCapacity(Self.bufferSize + 4096)
    }

    /// Appends one JSON value and a newline.
    func writeLine(_ value: JSON) throws {
        JSONWriter.write(value, into: &buffer)
        buffer.append(UInt8(ascii: "\n"))
        lines += 1
        if buffer.count >= Self.bufferSize { try flush() }
    }

    func write(_ bytes: [UInt8]) throws {
        buffer.append(contentsOf: bytes)
        if buffer.count >= Self.bufferSize { try flush() }
    }

    private func flush() throws {
        guard !buffer.isEmpty else { return }
        try handle.write(contentsOf: buffer)
        buffer.removeAll(keepingCapacity: true)
    }

    func close() throws {
        try flush()
        try handle.synchronize()
        try handle.close()
    }
}

/// Why an export failed.
package enum ExportError: Error, Sendable, Equatable, CustomStringConvertible {
    case cannotWrite(String)
    case outputExists(String)
    case fileContentMissing(key: String)

    package var description: String {
        switch self {
        case .cannotWrite(let path): "cannot write \(path)"
        case .outputExists(let path): "\(path) already exists (an export never overwrites; choose a new path or an empty folder)"
        case .fileContentMissing(let key): "the content of the file '\(key)' is missing from the file storage"
        }
    }
}
