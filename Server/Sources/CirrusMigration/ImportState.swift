import Foundation

/// Where an import stands, saved after every committed batch: per input file, the last line whose outcome is
/// committed (imported, skipped or reported), and whether the file is finished. A re-run continues after those
/// lines; skip-if-exists makes re-reading a batch whose state was not saved (a crash in between) harmless.
struct ImportState: Codable, Equatable {
    struct FileProgress: Codable, Equatable {
        var line: Int
        var finished: Bool
        /// Records (or relation members, sessions) handled so far: counted as skipped when a re-run finds the file finished.
        var records: Int = 0
    }

    var source: String
    var files: [String: FileProgress] = [:]

    /// The default path: `<data dir>/imports/<digest of the source's absolute path>.state`.
    static func defaultPath(dataDirectory: String, source: String) -> String {
        let absolute = URL(fileURLWithPath: source).standardizedFileURL.path
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in absolute.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x100_0000_01b3
        }
        let hex = String(hash, radix: 16)
        return dataDirectory + "/imports/" + String(repeating: "0", count: 16 - hex.count) + hex + ".state"
    }

    /// The saved state, or a fresh one when there is no file.
    static func load(path: String, source: String) throws -> ImportState {
        guard let data = FileManager.default.contents(atPath: path) else { return ImportState(source: source) }
        let state = try JSONDecoder().decode(ImportState.self, from: data)
        guard state.source == source else { throw ImportError.stateMismatch("it records an import of '\(state.source)'") }
        return state
    }

    /// Writes the state atomically (a temporary file renamed over the old one).
    func save(path: String) throws {
        let url = URL(fileURLWithPath: path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        try encoder.encode(self).write(to: url, options: .atomic)
    }
}
