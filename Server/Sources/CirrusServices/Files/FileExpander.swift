import CirrusModel
import CirrusStorage

/// Writes file values the way LeanCloud reads them back: a stored `{"__type":"File","id":…}` becomes the file's row
/// (`objectId`, `name`, `url`, `mime_type`, `metaData`, …, recording R#2), with one store round trip for all the files
/// of a reply. Files in arrays and in included objects are expanded too; a file whose row is gone stays as stored.
struct FileExpander {
    let store: any StorageAdapter
    let visibility: FieldVisibility

    func expand(_ objects: inout [StoredObject]) async throws {
        var ids: Set<String> = []
        for object in objects {
            for value in object.fields.values { Self.collectFileIds(in: value, into: &ids) }
        }
        guard !ids.isEmpty else { return }
        let rows = try await store.fetch(ids.sorted().map { Pointer(className: "_File", objectId: $0) }, readers: nil)
        var expanded: [String: JSON] = [:]
        for var row in rows {
            visibility.redact(&row, schema: nil, for: .master)
            var members = row.fields
            members.tag(.file)
            members["objectId"] = .string(row.objectId)
            members["createdAt"] = .string(row.createdAt.iso8601)
            members["updatedAt"] = .string(row.updatedAt.iso8601)
            expanded[row.objectId] = .object(members)
        }
        for index in objects.indices {
            objects[index].fields = objects[index].fields.mapValues { Self.replacing($0, with: expanded) }
        }
    }

    /// Adds the row ids of the file values of a field to `ids`: a file, the files of an array, and the files of an
    /// included object (a pointer expanded by `include`), at any depth. Scalars, which most fields are, cost a switch.
    private static func collectFileIds(in value: JSON, into ids: inout Set<String>) {
        switch value {
        case .array(let elements):
            for element in elements { collectFileIds(in: element, into: &ids) }
        case .object(let members):
            if let id = fileId(value) {
                ids.insert(id)
            } else if isIncluded(members) {
                for member in members.values { collectFileIds(in: member, into: &ids) }
            }
        default:
            return
        }
    }

    private static func fileId(_ value: JSON) -> String? {
        guard case .object(let members) = value, members.isTyped(.file) else { return nil }
        return members["id"]?.stringValue ?? members["objectId"]?.stringValue
    }

    /// An included object: a pointer that carries its target's fields.
    private static func isIncluded(_ members: [String: JSON]) -> Bool {
        members.isTyped(.pointer) && members["createdAt"] != nil
    }

    private static func replacing(_ value: JSON, with expanded: [String: JSON]) -> JSON {
        if let id = fileId(value) { return expanded[id] ?? value }
        switch value {
        case .array(let elements): return .array(elements.map { replacing($0, with: expanded) })
        case .object(let members) where isIncluded(members): return .object(members.mapValues { replacing($0, with: expanded) })
        default: return value
        }
    }
}
