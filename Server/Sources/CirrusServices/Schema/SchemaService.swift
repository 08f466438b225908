package import CirrusModel
import CirrusStorage

/// The schema API (master key only): reads classes with their fields, permissions, flags, default ACL and named
/// indexes; creates and changes them; drops fields, empty classes and indexes.
package struct SchemaService: Sendable {
    package let objects: ObjectService

    package init(objects: ObjectService) {
        self.objects = objects
    }

    var store: any StorageAdapter { objects.store }

    /// Classes whose built-in fields the schema API will not drop, and which cannot be dropped themselves.
    static let systemFields: [String: Set<String>] = [
        "_User": ["username", "email", "emailVerified", "mobilePhoneNumber", "mobilePhoneVerified", "authData"],
        "_Role": ["name", "users", "roles"],
        "_Session": [],
    ]

    /// Every class, by name.
    package func all(caller: Caller) async throws -> [ClassSchema] {
        try requireMaster(caller)
        return try await store.loadSchemas().sorted { $0.className < $1.className }
    }

    /// One class.
    /// - Throws: ``APIError`` ``APIError/Reason/classNotFound``.
    package func schema(of className: String, caller: Caller) async throws -> ClassSchema {
        try requireMaster(caller)
        try ClassName.validate(className)
        guard let schema = try await store.loadSchema(of: className) else { throw ObjectService.classNotFound(className) }
        return schema
    }

    /// The classes a client may find, each with only the fields it may read (no hidden or personal fields, no
    /// permissions, indexes or options): what Bmob's SDKs read with the app key (seed 004 "获取表结构").
    package func clientSchemas(caller: Caller) async throws -> [ClassSchema] {
        try await store.loadSchemas().sorted { $0.className < $1.className }.compactMap { schema in
            (try? objects.policy.check(.find, on: schema.className, schema: schema, caller: caller)).map { Self.clientView(schema) }
        }
    }

    /// One class as ``clientSchemas(caller:)`` shows it.
    /// - Throws: ``APIError`` ``APIError/Reason/classNotFound``, or the class's find permission's refusal.
    package func clientSchema(of className: String, caller: Caller) async throws -> ClassSchema {
        try ClassName.validate(className)
        guard let schema = try await store.loadSchema(of: className) else { throw ObjectService.classNotFound(className) }
        try objects.policy.check(.find, on: className, schema: schema, caller: caller)
        return Self.clientView(schema)
    }

    /// `schema` without the fields a client may not read and without its options.
    static func clientView(_ schema: ClassSchema) -> ClassSchema {
        let protected = ClassSchema.protectedFields(of: schema.className, schema: schema)
        return ClassSchema(className: schema.className, fields: schema.fields.filter { !protected.contains($0.key) })
    }

    /// Creates a class.
    /// - Throws: ``APIError`` ``APIError/Reason/classExists`` when it exists.
    package func create(_ className: String, change: SchemaChange, caller: Caller) async throws -> ClassSchema {
        try requireMaster(caller)
        try ClassName.validate(className)
        if try await store.loadSchema(of: className) != nil { throw APIError(.classExists, "Class \(className) already exists.") }
        return try await apply(change, to: className, current: ClassSchema(className: className))
    }

    /// Changes a class: adds and drops fields, sets flags, permissions, the default ACL and indexes.
    package func update(_ className: String, change: SchemaChange, caller: Caller) async throws -> ClassSchema {
        let current = try await schema(of: className, caller: caller)
        return try await apply(change, to: className, current: current)
    }

    /// Drops a class that has no objects.
    package func delete(_ className: String, caller: Caller) async throws {
        try requireMaster(caller)
        try ClassName.validate(className)
        guard Self.systemFields[className] == nil else {
            throw APIError(.classPermissionDenied, "The system class \(className) cannot be dropped.")
        }
        try await translating(className) { try await store.deleteClass(className: className) }
        objects.schemas.invalidate(className)
        await store.announce(.schema(className: className))
    }

    private func apply(_ change: SchemaChange, to className: String, current: ClassSchema) async throws -> ClassSchema {
        try check(change, against: current)
        var options = current.options
        if let permissions = change.permissions { options.permissions = permissions }
        if let acl = change.defaultACL { options.defaultACL = acl }
        for (field, flags) in change.fieldOptions(over: current) { options.fields[field] = flags.isDefault ? nil : flags }
        for field in change.deletedFields { options.fields[field] = nil }
        for name in change.droppedIndexes { options.indexes[name] = nil }
        for (name, path) in change.addedIndexes { options.indexes[name] = path }
        let newFields = change.fields.filter { current.fields[$0.key] == nil }
        try await translating(className) {
            if !change.deletedFields.isEmpty { try await store.deleteFields(className: className, fields: change.deletedFields) }
            _ = try await store.defineClass(className, newFields: newFields, options: options)
            for name in change.droppedIndexes { if let path = current.options.indexes[name] { try await store.dropIndex(className: className, path: path) } }
            for path in change.addedIndexes.values { try await store.ensureIndex(className: className, path: path) }
        }
        objects.schemas.invalidate(className)
        await store.announce(.schema(className: className))
        var search = change.search
        if !change.textIndexFields.isEmpty {
            let base = (change.search ?? current.options.searchFields) ?? []
            search = .some(base + change.textIndexFields.filter { !base.contains($0) })
        }
        if let search, search != current.options.searchFields {
            try await SearchService(objects: objects).configure(className, fields: search, caller: .master)
        }
        guard let schema = try await objects.schemas.schema(of: className) else { throw ObjectService.classNotFound(className) }
        return schema
    }

    private func check(_ change: SchemaChange, against current: ClassSchema) throws(APIError) {
        let protected = Self.systemFields[current.className] ?? []
        for field in change.deletedFields {
            guard !protected.contains(field) else { throw APIError(.immutableField, "The field '\(field)' of \(current.className) cannot be dropped.") }
            guard current.fields[field] != nil else { throw APIError(.invalidKeyName, "The field '\(field)' does not exist.") }
        }
        for (field, type) in change.fields {
            if let recorded = current.type(of: field), recorded != type {
                throw APIError(.incorrectType, "The field '\(field)' exists with type \(recorded), not \(type).")
            }
        }
        let flags = change.fieldOptions(over: current)
        for field in flags.keys where current.type(of: field) == nil && change.fields[field] == nil && !protected.contains(field) {
            throw APIError(.invalidKeyName, "The field '\(field)' does not exist.")
        }
        try ColumnRules.checkDefaults(flags) { change.fields[$0] ?? current.type(of: $0) }
        for (field, flags) in flags where flags.exposed {
            guard current.className == "_User", ClassSchema.exposablePersonalFields.contains(field) else {
                throw APIError(.invalidParameter, "Only the email and mobilePhoneNumber fields of _User can be exposed.")
            }
        }
        for name in change.droppedIndexes where current.options.indexes[name] == nil {
            throw APIError(.invalidParameter, "The index '\(name)' does not exist.")
        }
        // Parse's rule: an index is on a field the class has (or gets in the same change); a nested path's field.
        for (name, path) in change.addedIndexes where current.type(of: path.root) == nil && change.fields[path.root] == nil {
            throw APIError(.invalidQuery, "The field '\(path.root)' of the index '\(name)' does not exist: add the field first.")
        }
    }

    private func requireMaster(_ caller: Caller) throws(APIError) {
        guard caller.isMaster else { throw APIError(.masterKeyRequired, "The request must be signed by master key.") }
    }

    private func translating(_ className: String, _ body: () async throws -> Void) async throws {
        do {
            try await body()
        } catch let error as StorageError {
            throw error.apiError(className: className)
        }
    }
}
