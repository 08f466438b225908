import CirrusModel
import CirrusStorage

/// Expands pointers named by `include` paths (`post`, `post.author`, arrays of pointers), with one store
/// round trip per level of the paths, whatever the number of keys and classes: `include=a,b,c` over three
/// classes costs one statement, `include=post.author` two.
///
/// An expanded pointer keeps `__type: "Pointer"` and `className` and gains the target's fields and
/// built-in keys, which is LeanCloud's shape; other dialects rewrite it when encoding. Pointers whose
/// target is missing stay as they are.
///
/// Included objects are read with the caller's read permission and their class's get permission: a pointer to an
/// object the caller may not read stays a plain pointer.
///
/// Arrays of pointers fan out: with `include=arr,arr.arr` every object of every array is expanded with its own array,
/// so the reply can hold far more objects than the store holds. The objects fetched, and the objects the reply would
/// hold (each counted where it appears), are bounded by ``QueryLimits/maximumIncludedObjects``; beyond it the request
/// is refused before the reply is built.
struct Includer {
    let store: any StorageAdapter
    /// Who reads: included objects are read with the caller's ACL principals and redacted for the caller.
    let caller: Caller
    let visibility: FieldVisibility
    let schemas: SchemaCache
    let limits: QueryLimits

    func expand(_ objects: inout [StoredObject], paths: [FieldPath]) async throws {
        let tree = IncludeTree(paths)
        guard !tree.children.isEmpty else { return }
        let documents = objects.map { JSON.object($0.fields) }
        let loaded = try await load(documents, tree: tree)
        var counter = IncludeCounter(loaded: loaded, limit: limits.maximumIncludedObjects)
        for document in documents { try counter.add(document, tree) }
        for index in objects.indices {
            if case .object(let fields) = Self.substitute(.object(objects[index].fields), tree, loaded) {
                objects[index].fields = fields
            }
        }
    }

    /// Every object the tree reaches from `documents`, in their included form, fetched level by level.
    private func load(_ documents: [JSON], tree: IncludeTree) async throws -> [Pointer: JSON] {
        var loaded: [Pointer: JSON] = [:]
        var fetchedCount = 0
        var frontier = documents.map { Visit(document: $0, tree: tree) }
        while !frontier.isEmpty {
            var wanted: [(pointer: Pointer, tree: IncludeTree)] = []
            for visit in frontier {
                for (key, child) in visit.tree.children {
                    wanted += Self.pointers(in: visit.document[key]).map { ($0, child) }
                }
            }
            let missing = Set(wanted.map(\.pointer)).subtracting(loaded.keys)
            let permitted = try await gettable(Set(missing.map(\.className)))
            let fetched = missing.filter { permitted.contains($0.className) }
            fetchedCount += fetched.count
            guard fetchedCount <= limits.maximumIncludedObjects else { throw Self.tooMany(limit: limits.maximumIncludedObjects) }
            if !fetched.isEmpty {
                let sorted = fetched.sorted { ($0.className, $0.objectId) < ($1.className, $1.objectId) }
                for var object in try await store.fetch(sorted, readers: caller.readers) {
                    visibility.redact(&object, schema: try await schemas.schema(of: object.className), for: caller)
                    loaded[Pointer(className: object.className, objectId: object.objectId)] = Self.includedForm(object)
                }
            }
            var next: [Visit] = []
            var seen: Set<PointerVisit> = []
            for (pointer, child) in wanted where !child.children.isEmpty {
                guard let document = loaded[pointer], seen.insert(PointerVisit(pointer: pointer, tree: child)).inserted else { continue }
                next.append(Visit(document: document, tree: child))
            }
            frontier = next
        }
        return loaded
    }

    /// The classes whose objects the caller may get: a pointer into another class stays a plain pointer.
    private func gettable(_ classNames: Set<String>) async throws -> Set<String> {
        var permitted: Set<String> = []
        for className in classNames {
            let schema = try await schemas.schema(of: className)
            if (try? AccessPolicy().check(.get, on: className, schema: schema, caller: caller)) != nil { permitted.insert(className) }
        }
        return permitted
    }

    /// `document` with the pointers under each key of `tree` replaced by their loaded objects, expanded in turn.
    static func substitute(_ document: JSON, _ tree: IncludeTree, _ loaded: [Pointer: JSON]) -> JSON {
        guard case .object(var fields) = document else { return document }
        for (key, child) in tree.children {
            guard let value = fields[key] else { continue }
            fields[key] = replacing(value) { pointer in loaded[pointer].map { substitute($0, child, loaded) } }
        }
        return .object(fields)
    }

    /// The pointers held by a field: a pointer, or the pointers of an array (one level).
    static func pointers(in value: JSON?) -> [Pointer] {
        switch value {
        case .object?: return pointer(value!).map { [$0] } ?? []
        case .array(let elements)?: return elements.compactMap(pointer)
        default: return []
        }
    }

    private static func pointer(_ value: JSON) -> Pointer? {
        guard case .object(let members) = value, members.isTyped(.pointer), let className = members["className"]?.stringValue,
            let id = members["objectId"]?.stringValue
        else { return nil }
        return Pointer(className: className, objectId: id)
    }

    /// `value` with its pointer, or the pointers of its array, replaced where `expanded` gives an object.
    static func replacing(_ value: JSON, with expanded: (Pointer) -> JSON?) -> JSON {
        switch value {
        case .object: return pointer(value).flatMap(expanded) ?? value
        case .array(let elements): return .array(elements.map { element in pointer(element).flatMap(expanded) ?? element })
        default: return value
        }
    }

    /// A stored object as it appears when included.
    static func includedForm(_ object: StoredObject) -> JSON {
        var members = object.restMembers
        members["ACL"] = nil
        members.tag(.pointer)
        members["className"] = .string(object.className)
        return .object(members)
    }

    static func tooMany(limit: Int) -> APIError {
        APIError(.queryTooComplex, "Query too complex: include would expand more than \(limit) objects.")
    }

    /// A document still to be searched for pointers under the keys of `tree`.
    private struct Visit {
        let document: JSON
        let tree: IncludeTree
    }

    /// A loaded object and the subtree it is searched with, visited once per level.
    struct PointerVisit: Hashable {
        let pointer: Pointer
        let tree: IncludeTree
    }
}

/// Counts the objects ``Includer/substitute(_:_:_:)`` would put into a reply, each as often as it appears, without
/// building the reply: the count below an object and a subtree is computed once, and counts stop just past the limit.
struct IncludeCounter {
    let loaded: [Pointer: JSON]
    let limit: Int
    private(set) var total = 0
    private var below: [Includer.PointerVisit: Int] = [:]

    init(loaded: [Pointer: JSON], limit: Int) {
        self.loaded = loaded
        self.limit = limit
    }

    /// Adds the objects expanded into `document` under `tree`.
    /// - Throws: ``APIError`` ``APIError/Reason/queryTooComplex`` once the total passes the limit.
    mutating func add(_ document: JSON, _ tree: IncludeTree) throws(APIError) {
        total = min(total + count(document, tree), limit + 1)
        guard total <= limit else { throw Includer.tooMany(limit: limit) }
    }

    /// The objects expanded into `document` under `tree`, at most one past the limit.
    private mutating func count(_ document: JSON, _ tree: IncludeTree) -> Int {
        guard case .object(let fields) = document else { return 0 }
        var sum = 0
        for (key, child) in tree.children {
            for pointer in Includer.pointers(in: fields[key]) {
                guard let object = loaded[pointer] else { continue }
                let visit = Includer.PointerVisit(pointer: pointer, tree: child)
                let nested = below[visit] ?? (child.children.isEmpty ? 0 : count(object, child))
                below[visit] = nested
                sum = min(sum + 1 + nested, limit + 1)
                if sum > limit { return sum }
            }
        }
        return sum
    }
}

/// Include paths as a tree: `a.b,a.c,d` → a → {b, c}, d.
struct IncludeTree: Hashable {
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
