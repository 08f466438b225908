package import CirrusModel
package import CirrusStorage

/// Turns validated request bodies into store commands: initial values of new objects, field types to
/// record, and the checks that need the class schema (type mismatch, one GeoPoint field per class).
/// `package`: `cirrus import` plans its inserts with it, so imported objects are what a REST create stores.
package struct WritePlanner {
    let className: String
    let schema: ClassSchema?
    let configuration: ServiceConfiguration

    package init(className: String, schema: ClassSchema?, configuration: ServiceConfiguration) {
        self.className = className
        self.schema = schema
        self.configuration = configuration
    }

    /// The insert for a new object.
    package func insert(_ update: ObjectUpdate, options: WriteOptions, now: Timestamp) throws(APIError) -> WriteCommand.Insert {
        var fields: [String: JSON] = [:]
        var relations: [(field: String, add: [Pointer])] = []
        for (path, operation) in update.operations {
            if case .relation(let added, _) = operation {
                relations.append((path.root, added))
            } else if let value = operation.apply(to: nil) {
                fields[path.root] = value.wire
            }
        }
        let newFields = try newFieldTypes(update.operations)
        let object = StoredObject(
            className: className, objectId: ObjectID.make(options.idStyle), createdAt: now, updatedAt: now,
            acl: update.acl.flatMap { $0 }?.wire, fields: fields
        )
        var insert = WriteCommand.Insert(object: object, relations: relations, newFields: newFields, maximumSize: configuration.maximumObjectSize)
        insert.searchFields = schema?.options.searchFields
        return insert
    }

    /// The update of an existing object.
    func update(_ objectId: String, _ update: ObjectUpdate, condition: Condition?, now: Timestamp) throws(APIError) -> WriteCommand.Update {
        WriteCommand.Update(
            className: className, objectId: objectId, updatedAt: now, changes: update, condition: condition,
            schema: schema, newFields: try newFieldTypes(update.operations), maximumSize: configuration.maximumObjectSize
        )
    }

    /// The field types the operations introduce; refuses a type that differs from the recorded one.
    package func newFieldTypes(_ operations: [(path: FieldPath, operation: FieldOperation)]) throws(APIError) -> [String: FieldType] {
        var introduced: [String: FieldType] = [:]
        for (path, operation) in operations {
            guard let type = Self.type(of: operation, at: path) else { continue }
            if let recorded = schema?.type(of: path.root) {
                guard Self.isCompatible(recorded, type, nested: path.isNested) else { throw mismatch(path.root, recorded, type) }
                continue
            }
            if let earlier = introduced[path.root], earlier != type { throw mismatch(path.root, earlier, type) }
            introduced[path.root] = type
        }
        try checkGeoPoints(introduced)
        return introduced
    }

    /// The type a top-level field gets: the operation's, or Object for a write below it.
    private static func type(of operation: FieldOperation, at path: FieldPath) -> FieldType? {
        guard path.isNested else { return operation.fieldType }
        // Below a field that does not exist yet, both stores create objects, numeric keys included.
        return .object
    }

    private static func isCompatible(_ recorded: FieldType, _ attempted: FieldType, nested: Bool) -> Bool {
        if nested { return recorded == .object || recorded == .array }
        return recorded == attempted
    }

    private func checkGeoPoints(_ introduced: [String: FieldType]) throws(APIError) {
        let added = introduced.filter { $0.value == .geoPoint }.map(\.key).sorted()
        guard let first = added.first else { return }
        if let existing = schema?.geoPointField, existing != first {
            throw APIError(.incorrectType, "Only one GeoPoint field is allowed per class: '\(existing)' exists, so '\(first)' cannot be added.")
        }
        if added.count > 1 {
            throw APIError(.incorrectType, "Only one GeoPoint field is allowed per class: got '\(added.joined(separator: "', '"))'.")
        }
    }

    private func mismatch(_ field: String, _ recorded: FieldType, _ attempted: FieldType) -> APIError {
        APIError(.incorrectType, "Invalid value type for field '\(field)': expected \(recorded) but got \(attempted).")
    }
}
