public import CirrusModel
import Foundation

/// What `cirrus export` and `POST /1.1/exportData` write: which classes, which objects (by `updatedAt`), and whether
/// objects and file contents are included.
public struct ExportOptions: Sendable, Hashable {
    /// The classes to export; `nil` for every class. Sessions go with `_User`.
    public var classes: Set<String>?
    /// Only objects updated at or after this instant (LeanCloud's `from_date`).
    public var from: Timestamp?
    /// Only objects updated before this instant (LeanCloud's `to_date`, whose day is included: see ``ExportDate``).
    public var to: Timestamp?
    /// Only `_schema.json` and the manifest, no objects.
    public var onlySchema: Bool
    /// Writes the contents of stored files under `files/<key>`.
    public var includeFiles: Bool
    /// Objects (or relation members) read per store query.
    public var pageSize: Int
    /// The base URL of file contents (`https://host/files`), for the `url` of `_File` rows that do not store one.
    public var fileURLBase: String?

    public init(
        classes: Set<String>? = nil, from: Timestamp? = nil, to: Timestamp? = nil, onlySchema: Bool = false, includeFiles: Bool = false,
        pageSize: Int = 1000, fileURLBase: String? = nil
    ) {
        self.classes = classes
        self.from = from
        self.to = to
        self.onlySchema = onlySchema
        self.includeFiles = includeFiles
        self.pageSize = max(1, pageSize)
        self.fileURLBase = fileURLBase
    }

    /// Whether the objects of `className` are exported.
    func includes(_ className: String) -> Bool {
        classes.map { $0.contains(className) } ?? true
    }

    /// Reads LeanCloud's comma-separated class list (`"Post, _User"`), refusing invalid class names.
    /// - Throws: ``APIError`` ``APIError/Reason/invalidClassName``.
    package static func classList(_ text: String) throws -> Set<String>? {
        let names = text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        guard !names.isEmpty else { return nil }
        for name in names { try ClassName.validate(name) }
        return Set(names)
    }
}

/// The dates of an export's filter: `2015-09-20` (LeanCloud's form; as `to`, the whole day is included) or a full ISO
/// 8601 instant.
package enum ExportDate {
    /// - Parameter endOfDay: for `to`: a bare day means up to the end of that day.
    /// - Throws: ``APIError`` ``APIError/Reason/invalidParameter`` for anything else.
    package static func parse(_ text: String, endOfDay: Bool, name: String) throws -> Timestamp {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        let bytes = Array(trimmed.utf8)
        if bytes.count == 10, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"),
            let day = Timestamp(parsing: trimmed + "T00:00:00.000Z")
        {
            return endOfDay ? Timestamp(millisecondsSince1970: day.millisecondsSince1970 + 86_400_000) : day
        }
        if bytes.count > 10, let stamp = Timestamp(parsing: trimmed) { return stamp }
        throw APIError(.invalidParameter, "\(name) must be a date such as 2015-09-20, got '\(text)'.")
    }
}
