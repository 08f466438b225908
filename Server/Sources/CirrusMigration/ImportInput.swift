import Foundation

/// The files of an export, wherever they are: a folder (searched recursively), one `.json`/`.jsonl` file, or a
/// `.tar.gz`/`.tgz` archive read as a stream (once to list it, then once per import phase that has files).
struct ImportInput {
    struct Entry: Hashable {
        /// The path inside the export (relative to the folder, or the member name).
        var name: String
        var size: Int64
        var kind: ExportFileName
    }

    enum Layout {
        case folder(String)
        case file(String)
        case archive(String)
    }

    let layout: Layout

    init(path: String) throws {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { throw ImportError.unreadable(path) }
        let lower = path.lowercased()
        if isDirectory.boolValue {
            layout = .folder(path)
        } else if lower.hasSuffix(".tar.gz") || lower.hasSuffix(".tgz") {
            layout = .archive(path)
        } else if lower.hasSuffix(".json") || lower.hasSuffix(".jsonl") {
            layout = .file(path)
        } else {
            throw ImportError.unsupportedSource(path)
        }
    }

    /// The files to import, in import order.
    func entries() throws -> [Entry] {
        var found: [Entry] = []
        switch layout {
        case .folder(let root):
            guard let enumerator = FileManager.default.enumerator(atPath: root) else { throw ImportError.unreadable(root) }
            while let relative = enumerator.nextObject() as? String {
                let full = root + "/" + relative
                var isDirectory: ObjCBool = false
                guard FileManager.default.fileExists(atPath: full, isDirectory: &isDirectory), !isDirectory.boolValue else { continue }
                let kind = ExportFileName(path: relative)
                guard kind != .ignored else { continue }
                found.append(Entry(name: relative, size: Self.size(of: full), kind: kind))
            }
        case .file(let path):
            let kind = ExportFileName(path: path)
            guard kind != .ignored else { throw ImportError.unsupportedSource(path) }
            found.append(Entry(name: (path as NSString).lastPathComponent, size: Self.size(of: path), kind: kind))
        case .archive(let path):
            let tar = TarReader(try GzipByteSource(try FileByteSource(path: path)))
            while let (member, _) = try tar.next() {
                let kind = ExportFileName(path: member.name)
                guard member.isFile, kind != .ignored else { continue }
                found.append(Entry(name: member.name, size: member.size, kind: kind))
            }
        }
        return found.sorted { ($0.kind.phase, $0.name) < ($1.kind.phase, $1.name) }
    }

    /// Hands each of `entries` to `body` with a source of its bytes, in the order given (for an archive: the order of
    /// the phases, each phase in archive order).
    func read(_ entries: [Entry], _ body: (Entry, any ByteSource) async throws -> Void) async throws {
        switch layout {
        case .folder(let root):
            for entry in entries { try await body(entry, try FileByteSource(path: root + "/" + entry.name)) }
        case .file(let path):
            for entry in entries { try await body(entry, try FileByteSource(path: path)) }
        case .archive(let path):
            let phases = Array(Set(entries.map(\.kind.phase))).sorted()
            for phase in phases {
                let wanted = Dictionary(entries.filter { $0.kind.phase == phase }.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
                let tar = TarReader(try GzipByteSource(try FileByteSource(path: path)))
                while let (member, source) = try tar.next() {
                    guard member.isFile, let entry = wanted[member.name] else { continue }
                    try await body(entry, source)
                }
            }
        }
    }

    private static func size(of path: String) -> Int64 {
        ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? NSNumber)?.int64Value ?? 0
    }
}
