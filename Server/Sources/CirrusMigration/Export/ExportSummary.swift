public import CirrusModel

/// What an export wrote: objects per class, members per join file, file contents, and the manifest's instant.
public struct ExportSummary: Sendable, Hashable {
    /// Objects written per class (`_Session` included when sessions were written).
    public var classes: [String: Int] = [:]
    /// Members written per `_Join:<field>:<Class>.jsonl` file.
    public var joins: [String: Int] = [:]
    /// File contents written under `files/`.
    public var files = 0
    /// `_File` rows whose content the file storage did not have (external files, or lost contents).
    public var filesWithoutContent = 0
    public var exportedAt: Timestamp

    public init(exportedAt: Timestamp) {
        self.exportedAt = exportedAt
    }

    /// `manifest.json`.
    package var manifest: JSON {
        [
            "format": "cirrus-export", "version": 1, "exportedAt": .string(exportedAt.iso8601),
            "classes": .object(classes.mapValues { .int(Int64($0)) }),
            "joins": .array(joins.keys.sorted().map(JSON.string)),
            "files": .int(Int64(files)),
        ]
    }

    /// One line per class and join, for people.
    package var lines: [String] {
        classes.keys.sorted().map { "\($0): " + Self.count(classes[$0] ?? 0, "object") }
            + joins.keys.sorted().map { "\($0): " + Self.count(joins[$0] ?? 0, "member") }
            + ["files: " + Self.count(files, "content") + (filesWithoutContent > 0 ? ", \(filesWithoutContent) without content" : "")]
    }

    /// `1 object`, `2 objects`.
    static func count(_ number: Int, _ noun: String) -> String { "\(number) \(noun)" + (number == 1 ? "" : "s") }
}
