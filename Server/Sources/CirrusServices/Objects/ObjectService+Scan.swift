package import CirrusModel
package import CirrusStorage

/// Scanning a whole class in key order (LeanCloud's `/scan/classes`), for exports and migrations.
extension ObjectService {
    /// One page of a scan: the objects matching `condition` ordered by `key`, after the key value `after` (the
    /// value of the last object of the previous page), at most `limit`. Keyset pagination: each page is one
    /// indexed range query, so pages stay cheap however far the scan goes. Objects without the key are skipped.
    /// - Throws: ``APIError`` ``APIError/Reason/masterKeyRequired`` without the master key;
    ///   ``APIError/Reason/invalidQuery`` when `condition` names the scan key or `after` cannot be ordered.
    package func scan(
        _ className: String, condition: Condition, key: SortKey, after: Value?, limit: Int, caller: Caller
    ) async throws -> [StoredObject] {
        guard caller.isMaster else { throw APIError(.masterKeyRequired, "The request must be signed by master key.") }
        try ClassName.validate(className)
        if condition.fieldRoots.contains(key.path.root) {
            throw APIError(.invalidQuery, "Invalid query: the scan key '\(key.path)' cannot be used in where.")
        }
        guard let schema = try await schemas.schema(of: className) else { return [] }
        var parts = [condition]
        if key.path.isNested || ClassSchema.builtInFields[key.path.root] == nil { parts.append(.exists(key.path, true)) }
        if let after {
            guard after.isScanKey else {
                throw APIError(.invalidQuery, "Invalid query: the scan key '\(key.path)' must hold numbers, strings or dates.")
            }
            parts.append(.compare(key.path, key.descending ? .lessThan : .greaterThan, after))
        }
        let query = StorageQuery(className: className, schema: schema, condition: .all(parts), order: [key], limit: limit, readers: caller.readers)
        return try await store.find(query)
    }

    /// The value of the scan key in an object, in the REST encoding, or `nil` when the object lacks it.
    package static func scanKeyValue(of object: StoredObject, key: FieldPath) -> JSON? {
        if !key.isNested {
            switch key.root {
            case "objectId": return .string(object.objectId)
            case "createdAt": return Value.date(object.createdAt).wire
            case "updatedAt": return Value.date(object.updatedAt).wire
            default: break
            }
        }
        // Read the path as the SQL of the next page's condition reads it.
        let subject = ConditionSubject(
            className: object.className, objectId: object.objectId, createdAt: object.createdAt, updatedAt: object.updatedAt, fields: object.fields
        )
        return subject.value(at: key)
    }
}

extension Value {
    /// Whether a scan can continue after this value: a number, a string or a date.
    var isScanKey: Bool {
        switch self {
        case .int, .double, .string, .date: true
        default: false
        }
    }
}

extension Condition {
    /// The top-level fields a condition reads.
    var fieldRoots: Set<String> {
        switch self {
        case .always, .relatedTo: []
        case .and(let parts), .or(let parts), .nor(let parts): parts.reduce(into: []) { $0.formUnion($1.fieldRoots) }
        case .compare(let path, _, _), .inList(let path, _, _), .containsAll(let path, _), .exists(let path, _), .size(let path, _),
            .regex(let path, _, _), .inQuery(let path, _, _), .select(let path, _, _, _), .near(let path, _, _, _),
            .withinBox(let path, _, _), .withinPolygon(let path, _), .withinSphere(let path, _, _), .text(let path, _):
            [path.root]
        }
    }
}
