package import CirrusModel
package import CirrusStorage

/// Fetching and finding objects.
extension ObjectService {
    /// One object by id with its includes expanded, or `nil` when the object is missing.
    /// - Throws: ``APIError`` ``APIError/Reason/classNotFound`` when the class does not exist.
    package func get(_ className: String, objectId: String, include: [FieldPath], caller: Caller) async throws -> StoredObject? {
        try ClassName.validate(className)
        let schema = try await schemas.schema(of: className)
        try policy.check(.get, on: className, objectId: objectId, schema: schema, caller: caller)
        guard ObjectID.isAcceptable(objectId) else { return nil }
        guard schema != nil else { throw Self.classNotFound(className) }
        var objects = try await readable(className, objectId: objectId, caller: caller)
        try await includer(caller).expand(&objects, paths: include)
        try await FileExpander(store: store, visibility: visibility).expand(&objects)
        if className == "_User", caller.isMaster, !caller.isReadOnly, var user = objects.first {
            // The master key reads a user's session token (seed 001 L1190); a read-only master does not.
            let stable = try await store.sessions(userId: user.objectId).first { $0.kind == .stable && !$0.isExpired(at: Timestamp.now()) }
            if let stable { user.fields["sessionToken"] = .string(stable.token) }
            return user
        }
        return objects.first
    }

    /// The objects matching a query, with includes expanded; `count` is computed when asked for.
    /// A query on a class that does not exist yet finds nothing.
    package func find(_ query: Query, withCount: Bool, caller: Caller) async throws -> (objects: [StoredObject], count: Int?) {
        try ClassName.validate(query.className)
        let schema = try await schemas.schema(of: query.className)
        try await authorizeQuery(query.className, schema: schema, condition: query.condition, sorting: query.order.map(\.path), caller: caller)
        guard schema != nil else { return ([], withCount ? 0 : nil) }
        let storageQuery = StorageQuery(
            className: query.className, schema: schema, condition: query.condition, order: query.order,
            limit: query.limit, skip: query.skip, readers: caller.readers,
            textScoreField: query.keys?.includesTextScore == true ? KeySelection.textScoreKey : nil
        )
        async let counted: Int? = withCount ? store.count(storageQuery) : nil
        var objects = query.limit > 0 ? try await store.find(storageQuery) : []
        for index in objects.indices { visibility.redact(&objects[index], schema: schema, for: caller) }
        try await includer(caller).expand(&objects, paths: query.include)
        try await FileExpander(store: store, visibility: visibility).expand(&objects)
        return (objects, try await counted)
    }

    /// How the store would run a query (Parse's `explain`): the master key's only, as it tells the store's layout.
    /// - Throws: ``APIError`` ``APIError/Reason/masterKeyRequired``.
    package func queryPlan(_ query: Query, caller: Caller) async throws -> [String] {
        guard caller.isMaster else { throw APIError(.masterKeyRequired, "explain needs the master key.") }
        try ClassName.validate(query.className)
        guard let schema = try await schemas.schema(of: query.className) else { return [] }
        return try await store.queryPlan(for: StorageQuery(
            className: query.className, schema: schema, condition: query.condition, order: query.order, limit: query.limit, skip: query.skip
        ))
    }

    /// The object with this id if the caller may read it: a lookup by id, through the store's read predicate unless
    /// the caller holds the master key.
    func readable(_ className: String, objectId: String, caller: Caller) async throws -> [StoredObject] {
        let schema = try await schemas.schema(of: className)
        var objects = try await store.fetch([Pointer(className: className, objectId: objectId)], readers: caller.readers)
        for index in objects.indices { visibility.redact(&objects[index], schema: schema, for: caller) }
        return objects
    }

    func includer(_ caller: Caller) -> Includer {
        Includer(store: store, caller: caller, visibility: visibility, schemas: schemas, limits: configuration.queryLimits)
    }

    /// The checks of a read: the class's find permission, then ``authorizeNaming(_:schema:condition:sorting:caller:)``.
    package func authorizeQuery(_ className: String, schema: ClassSchema?, condition: Condition, sorting: [FieldPath], caller: Caller) async throws {
        try policy.check(.find, on: className, schema: schema, caller: caller)
        try await authorizeNaming(className, schema: schema, condition: condition, sorting: sorting, caller: caller)
    }

    /// The read rights a condition needs, wherever it is used (a query, a statistics query, a conditional write):
    /// the find permission of every class a sub-query reads, the get permission of the class of every object whose
    /// relation it lists, and no condition, sort or group key on a field the caller may not read.
    func authorizeNaming(_ className: String, schema: ClassSchema?, condition: Condition, sorting: [FieldPath], caller: Caller) async throws {
        guard !caller.isMaster else { return }
        var known: [String: ClassSchema?] = [className: schema]
        func load(_ name: String) async throws -> ClassSchema? {
            if let cached = known[name] { return cached }
            let loaded = try await schemas.schema(of: name)
            known[name] = loaded
            return loaded
        }
        for inner in condition.referencedClassNames.sorted() {
            try policy.check(.find, on: inner, schema: try await load(inner), caller: caller)
        }
        for owner in Set(condition.relationOwners.map(\.className)).sorted() {
            try policy.check(.get, on: owner, schema: try await load(owner), caller: caller)
        }
        let named = condition.fieldsRead(in: className) + sorting.map { (className, $0.root) }
        for name in Set(named.map(\.className)) { _ = try await load(name) }
        try visibility.checkNamed(named, schemaOf: { known[$0] ?? nil }, for: caller)
    }

    /// The class a query for `className` with `redirectClassNameForKey=key` runs on: the target class when `key`
    /// is a Relation field of `className` (the SDKs' relation queries on a parent class), else `className`.
    package func redirectedClassName(_ className: String, key: String) async throws -> String {
        try ClassName.validate(className)
        guard case .relation(let target)? = try await schemas.schema(of: className)?.type(of: key) else { return className }
        return target
    }

    /// The recorded schema of a class (for encoders: Relation descriptors, Date fields).
    package func schema(of className: String) async throws -> ClassSchema? {
        try await schemas.schema(of: className)
    }

    static func classNotFound(_ className: String) -> APIError {
        APIError(.classNotFound, "Class or object doesn't exists.")
    }
}
