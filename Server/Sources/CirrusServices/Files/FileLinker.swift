import CirrusModel
import CirrusStorage

/// Turns the file values Parse and Bmob write into LeanCloud's reference by row id.
///
/// Parse names a file by its key (`{"__type":"File","name":"<key>","url":…}`) and Bmob by its URL
/// (`{"__type":"File","filename":"photo.jpg","url":"<public URL>/files/<key>"}`). When such a value names a file
/// this server stores, it is written as `{"__type":"File","id":"<objectId>"}`, so that every dialect reads it back
/// in its own shape with a URL built on the current public URL. Other file values (external URLs, files this server
/// does not know) are kept as sent. One query resolves all the files of an update.
struct FileLinker {
    let store: any StorageAdapter
    let schemas: SchemaCache
    /// What this server's file URLs start with (`<public URL>/files`).
    let fileURLBase: String?

    func link(_ update: inout ObjectUpdate) async throws {
        var keys: Set<String> = []
        for value in update.writtenValues {
            for reference in Self.references(in: value) { if let key = key(of: reference) { keys.insert(key) } }
        }
        guard !keys.isEmpty, let schema = try await schemas.schema(of: "_File") else { return }
        let condition = Condition.inList(FieldPath(field: "key"), keys.sorted().map(Value.string), negated: false)
        let rows = try await store.find(StorageQuery(className: "_File", schema: schema, condition: condition, limit: keys.count))
        var ids: [String: String] = [:]
        for row in rows { if let key = row.fields["key"]?.stringValue { ids[key] = row.objectId } }
        guard !ids.isEmpty else { return }
        update.mapWrittenValues { value in
            guard case .file(let reference) = value, let key = key(of: reference), let id = ids[key] else { return value }
            return .file(FileReference(id: id))
        }
    }

    /// The file values of a written value: itself, or the elements of an array.
    static func references(in value: Value) -> [FileReference] {
        switch value {
        case .file(let reference): [reference]
        case .array(let elements): elements.flatMap(references)
        default: []
        }
    }

    /// The key a reference without an id names: the last segment of one of this server's URLs, else (Parse) its
    /// name when it has no foreign URL.
    func key(of reference: FileReference) -> String? {
        guard reference.id == nil else { return nil }
        if let url = reference.url {
            guard let base = fileURLBase, url.hasPrefix(base + "/") else { return nil }
            let key = String(url.dropFirst(base.count + 1))
            return FileKey.isValid(key) ? key : nil
        }
        guard let name = reference.name, FileKey.isValid(name) else { return nil }
        return name
    }
}
