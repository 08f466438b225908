import CirrusModel
import CirrusStorage

/// Finds the `_File` row an exported file value names, by objectId, storage key, original key, name or URL: first
/// among the rows this import wrote or found (kept in memory, a few strings per file), then in the store.
final class FileRowIndex {
    private let store: any StorageAdapter
    private var byKey: [String: String] = [:]
    private var byURL: [String: String] = [:]
    private var byName: [String: String] = [:]
    private var missing: Set<String> = []

    init(store: any StorageAdapter) {
        self.store = store
    }

    /// Remembers an imported (or already present) row.
    func remember(id: String, originalKey: String?, storageKey: String?, name: String?, url: String?) {
        if let originalKey { byKey[originalKey] = id }
        if let storageKey { byKey[storageKey] = id }
        if let url { byURL[url] = id }
        if let name, byName[name] == nil { byName[name] = id }
    }

    /// The objectId of the row `file` names, or `nil` when there is none.
    func resolve(_ file: ExportedFileValue, schema: ClassSchema?) async throws -> String? {
        if let id = file.id { return id }
        if let key = file.key, let id = byKey[key] { return id }
        if let url = file.url, let id = byURL[url] { return id }
        if let url = file.url, let last = url.split(separator: "/").last.map(String.init), let id = byKey[last] { return id }
        if let name = file.name, let id = byKey[name] ?? byName[name] { return id }
        guard let schema else { return nil }
        var candidates: [(String, String)] = []
        if let key = file.key { candidates += [("key", key), ("key", ImportedFileKey.make(from: key))] }
        if let url = file.url { candidates.append(("url", url)) }
        if let name = file.name { candidates += [("key", name), ("key", ImportedFileKey.make(from: name))] }
        for (field, text) in candidates where !missing.contains(field + "\n" + text) {
            let condition = Condition.compare(FieldPath(field: field), .equal, .string(text))
            if let row = try await store.find(StorageQuery(className: "_File", schema: schema, condition: condition, limit: 1)).first {
                byKey[text] = row.objectId
                return row.objectId
            }
            missing.insert(field + "\n" + text)
        }
        return nil
    }
}
