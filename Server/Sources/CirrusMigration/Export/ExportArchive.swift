import Dispatch
import Foundation

/// Packs an export folder into a `.tar.gz`, streaming: `manifest.json` and `_schema.json` first, then the other
/// files in name order, then `files/…`; each file is read in pieces, so memory stays constant.
enum ExportArchive {
    /// ``pack(directory:into:)`` on a dispatch thread: packing and compressing a large export takes long, blocking file
    /// work that must not hold one of the few threads of Swift's cooperative pool (a server keeps answering meanwhile).
    static func packOffPool(directory: String, into path: String) async throws {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            DispatchQueue.global(qos: .utility).async {
                do {
                    try pack(directory: directory, into: path)
                    continuation.resume()
                } catch {
                    continuation.resume(throwing: error)
                }
            }
        }
    }

    static func pack(directory: String, into path: String) throws {
        let gzip = try GzipFileWriter(path: path)
        var tar = TarWriter { try gzip.write($0) }
        let manager = FileManager.default
        var names = try manager.contentsOfDirectory(atPath: directory).filter { $0 != "files" }.sorted()
        for first in ["_schema.json", "manifest.json"] where names.contains(first) {
            names.removeAll { $0 == first }
            names.insert(first, at: 0)
        }
        var entries = names.map { (name: $0, path: directory + "/" + $0) }
        if let keys = try? manager.contentsOfDirectory(atPath: directory + "/files") {
            entries += keys.sorted().map { (name: "files/" + $0, path: directory + "/files/" + $0) }
        }
        for entry in entries {
            let attributes = try manager.attributesOfItem(atPath: entry.path)
            let size = (attributes[.size] as? NSNumber)?.intValue ?? 0
            let modified = (attributes[.modificationDate] as? Date) ?? Date()
            try tar.beginFile(name: entry.name, size: size, modified: modified)
            let handle = try FileHandle(forReadingFrom: URL(fileURLWithPath: entry.path))
            defer { try? handle.close() }
            var left = size
            while left > 0 {
                guard let data = try handle.read(upToCount: min(left, 1 << 20)), !data.isEmpty else {
                    throw ExportError.cannotWrite(entry.path + " (changed while packing)")
                }
                try tar.write(Array(data)[...])
                left -= data.count
            }
        }
        try tar.finish()
        try gzip.close()
    }
}
