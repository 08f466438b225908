/// The writes of one create or update request, parsed and validated from its JSON body.
public struct ObjectUpdate: Sendable, Hashable {
    /// The field operations, ordered by path so that the same body always gives the same SQL.
    public private(set) var operations: [(path: FieldPath, operation: FieldOperation)]
    /// The new ACL: `nil` leaves it unchanged, `.some(nil)` removes it.
    public var acl: ACL??

    public init(operations: [(path: FieldPath, operation: FieldOperation)] = [], acl: ACL?? = nil) {
        self.operations = operations.sorted { $0.path.description < $1.path.description }
        self.acl = acl
    }

    public static func == (lhs: ObjectUpdate, rhs: ObjectUpdate) -> Bool {
        lhs.acl == rhs.acl && lhs.operations.map(\.path) == rhs.operations.map(\.path)
            && lhs.operations.map(\.operation) == rhs.operations.map(\.operation)
    }

    public func hash(into hasher: inout Hasher) {
        for (path, operation) in operations {
            hasher.combine(path)
            hasher.combine(operation)
        }
        hasher.combine(acl)
    }

    /// Whether the update changes nothing at all.
    public var isEmpty: Bool { operations.isEmpty && acl == nil }

    /// The operations on top-level fields that change the document.
    public var documentOperations: [(path: FieldPath, operation: FieldOperation)] {
        operations.filter { $0.operation.touchesDocument }
    }

    /// The operations on a top-level field and on paths below it.
    public func operations(on field: String) -> [(path: FieldPath, operation: FieldOperation)] {
        operations.filter { $0.path.root == field }
    }

    /// Removes the operations on a top-level field and on paths below it, and returns them.
    @discardableResult
    public mutating func remove(field: String) -> [(path: FieldPath, operation: FieldOperation)] {
        let removed = operations(on: field)
        operations.removeAll { $0.path.root == field }
        return removed
    }

    /// Replaces every operation on a top-level field with `operation`.
    public mutating func set(_ field: String, _ operation: FieldOperation) {
        remove(field: field)
        add(FieldPath(field: field), operation)
    }

    /// Adds an operation on a path; the caller makes sure it does not overlap another one.
    public mutating func add(_ path: FieldPath, _ operation: FieldOperation) {
        operations.append((path, operation))
        operations.sort { $0.path.description < $1.path.description }
    }

    /// The relation edits, by field.
    public var relationOperations: [(field: String, add: [Pointer], remove: [Pointer])] {
        operations.compactMap { entry in
            guard case .relation(let added, let removed) = entry.operation else { return nil }
            return (entry.path.root, added, removed)
        }
    }
}

extension ObjectUpdate {
    /// Keys a client may send that the server maintains itself; they are ignored.
    static let ignoredKeys: Set<String> = ["objectId", "createdAt", "updatedAt", "className", "__ignore_hooks"]

    /// Parses a request body.
    /// - Parameters:
    ///   - body: the JSON body; must be an object.
    ///   - isCreate: dotted paths are refused when creating an object.
    ///   - defaultOffsetMinutes: the zone of dates sent without one.
    /// - Throws: ``APIError`` for a non-object body, invalid keys, malformed values or operations, and
    ///   a key sent together with one of its sub-paths.
    public init(body: JSON, isCreate: Bool, defaultOffsetMinutes: Int = 0) throws(APIError) {
        guard case .object(let members) = body else {
            throw APIError(.invalidJSON, "The body must be a JSON object.")
        }
        var operations: [(path: FieldPath, operation: FieldOperation)] = []
        var acl: ACL?? = nil
        for (key, value) in members {
            if Self.ignoredKeys.contains(key) { continue }
            if key == "ACL" {
                acl = .some(value.isNull ? nil : try ACL(wire: value))
                continue
            }
            let path = try Self.path(for: key, isCreate: isCreate)
            let operation = try FieldOperation(wire: value, defaultOffsetMinutes: defaultOffsetMinutes)
            if path.isNested, case .relation = operation {
                throw APIError(.invalidKeyName, "Relation operations apply to top-level fields, not to '\(key)'.")
            }
            operations.append((path, operation))
        }
        try Self.checkConflicts(operations.map(\.path))
        self.init(operations: operations, acl: acl)
    }

    private static func path(for key: String, isCreate: Bool) throws(APIError) -> FieldPath {
        if key.contains(".") {
            if isCreate { throw APIError(.invalidKeyName, "Dotted keys such as '\(key)' can only update an existing object.") }
            let path = try FieldPath(parsing: key)
            guard !FieldName.reserved.contains(path.root.lowercased()) else { throw APIError.invalidKey(key) }
            return path
        }
        guard FieldName.isWritable(key) else { throw APIError.invalidKey(key) }
        return FieldPath(field: key)
    }

    private static func checkConflicts(_ paths: [FieldPath]) throws(APIError) {
        let sorted = paths.sorted { $0.segments.count < $1.segments.count }
        for (index, shorter) in sorted.enumerated() {
            for longer in sorted[(index + 1)...] where longer.isWithin(shorter) {
                throw APIError(.invalidParameter, "Cannot update '\(shorter)' and '\(longer)' in one request: they overlap.")
            }
        }
    }
}
