import CirrusModel
import CirrusStorage

/// Expands pointers named by `include` paths (`post`, `post.author`), one store round trip per class and level.
///
/// An expanded pointer keeps `__type: "Pointer"` and `className` and gains the target's fields and
/// built-in keys, which is LeanCloud's shape; other dialects rewrite it when encoding.
struct Includer {
    let service: ObjectService

    func expand(_ objects: inout [StoredObject], paths: [FieldPath]) async throws {
        let tree = IncludeTree(paths)
        guard !tree.children.isEmpty else { return }
        var documents = objects.map { JSON.object($0.fields) }
        try await expand(&documents, tree: tree)
        for index in objects.indices {
            if case .object(let fields) = documents[index] { objects[index].fields = fields }
        }
    }

    /// Expands, in every document, the pointers under each key of `tree`.
    private func expand(_ documents: inout [JSON], tree: IncludeTree) async throws {
        for (key, subtree) in tree.children.sorted(by: { $0.key < $1.key }) {
            var pointers: [String: Set<String>] = [:]
            for document in documents {
                for pointer in Self.pointers(in: document[key]) { pointers[pointer.className, default: []].insert(pointer.objectId) }
            }
            guard !pointers.isEmpty else { continue }
            var expanded: [Pointer: JSON] = [:]
            for (className, ids) in pointers.sorted(by: { $0.key < $1.key }) {
                var targets = try await service.store.fetch(className: className, ids: ids.sorted()).map(Self.includedForm)
                try await expand(&targets, tree: subtree)
                for target in targets {
                    if let id = target["objectId"]?.stringValue { expanded[Pointer(className: className, objectId: id)] = target }
                }
            }
            for index in documents.indices {
                guard case .object(var fields) = documents[index], let value = fields[key] else { continue }
                fields[key] = Self.replacing(value, with: expanded)
                documents[index] = .object(fields)
            }
        }
    }

    /// The pointers held by a field: a pointer, or the pointers of an array (one level).
    static func pointers(in value: JSON?) -> [Pointer] {
        switch value {
        case .object(let members)?:
            guard members["__type"] == "Pointer", let className = members["className"]?.stringValue,
                let id = members["objectId"]?.stringValue
            else { return [] }
            return [Pointer(className: className, objectId: id)]
        case .array(let elements)?:
            return elements.flatMap { pointers(in: $0) }
        default:
            return []
        }
    }

    static func replacing(_ value: JSON, with expanded: [Pointer: JSON]) -> JSON {
        switch value {
        case .object:
            guard let pointer = pointers(in: value).first, let target = expanded[pointer] else { return value }
            return target
        case .array(let elements):
            return .array(elements.map { replacing($0, with: expanded) })
        default:
            return value
        }
    }

    /// A stored object as it appears when included.
    static func includedForm(_ object: StoredObject) -> JSON {
        var members = object.fields
        members["__type"] = "Pointer"
        members["className"] = .string(object.className)
        members["objectId"] = .string(object.objectId)
        members["createdAt"] = .string(object.createdAt.iso8601)
        members["updatedAt"] = .string(object.updatedAt.iso8601)
        return .object(members)
    }
}

/// Include paths as a tree: `a.b,a.c,d` → a → {b, c}, d.
struct IncludeTree {
    var children: [String: IncludeTree] = [:]

    init(_ paths: [FieldPath]) {
        for path in paths { insert(path.segments[...]) }
    }

    private init() {}

    private mutating func insert(_ segments: ArraySlice<String>) {
        guard let first = segments.first else { return }
        var child = children[first] ?? IncludeTree()
        child.insert(segments.dropFirst())
        children[first] = child
    }
}
