package import CirrusModel
import CirrusStorage

/// Statistics queries: Bmob's `sum`, `average`, `max`, `min`, `groupby`, `groupcount` and `having`, and BQL's
/// `group by`, computed by the store in SQL.
extension ObjectService {
    /// The rows of a statistics query as canonical JSON objects: the group keys under their field names (a Date
    /// field, `createdAt` and `updatedAt` as the day `YYYY-MM-DD`), the computed values under `_sumScore`-style
    /// keys and the group size under `_count`. Without group keys there is one row. A class that does not exist
    /// yet gives no rows.
    /// - Parameter dayOffsetMinutes: the zone in which Date group keys are cut into days, in minutes east of UTC.
    /// - Throws: ``APIError`` ``APIError/Reason/invalidQuery`` for `sum` or `average` over a field that is not a
    ///   Number, `max` or `min` over one that is not a Number, String or Date, nothing to compute, or a `having`
    ///   or `order` key that is not a result key.
    package func aggregate(_ aggregation: Aggregation, caller: Caller, dayOffsetMinutes: Int = 0) async throws -> [JSON] {
        try ClassName.validate(aggregation.className)
        let schema = try await schemas.schema(of: aggregation.className)
        let computed = aggregation.groupBy + aggregation.functions.map(\.field) + aggregation.order.map(\.path)
        try await authorizeQuery(aggregation.className, schema: schema, condition: aggregation.condition, sorting: computed, caller: caller)
        try AggregationCheck(aggregation: aggregation, schema: schema).validate()
        guard schema != nil else { return [] }
        let query = StorageQuery(className: aggregation.className, schema: schema, condition: aggregation.condition, readers: caller.readers)
        return try await store.aggregate(StorageAggregation(query: query, aggregation: aggregation, dayOffsetMinutes: dayOffsetMinutes))
    }
}

/// The checks of a statistics query against the class schema.
struct AggregationCheck {
    let aggregation: Aggregation
    let schema: ClassSchema?

    func validate() throws(APIError) {
        guard !aggregation.groupBy.isEmpty || !aggregation.functions.isEmpty || aggregation.countsGroups else {
            throw invalid("a statistics query needs groupby, groupcount, sum, average, max or min")
        }
        for path in aggregation.groupBy where type(of: path) == .acl {
            throw invalid("cannot group by ACL")
        }
        for (function, field) in aggregation.functions { try check(function, field) }
        let keys = resultKeys
        if let having = aggregation.having { try check(having, keys) }
        for key in aggregation.order where !keys.contains(key.path.description) {
            throw invalid("cannot order by '\(key.path)': the result keys are \(keys.sorted().joined(separator: ", "))")
        }
        guard aggregation.limit >= 0, aggregation.skip >= 0 else { throw invalid("limit and skip must not be negative") }
    }

    /// The keys of the result rows.
    var resultKeys: Set<String> {
        var keys = Set(aggregation.groupBy.map(\.description))
        for (function, field) in aggregation.functions { keys.insert(Aggregation.resultKey(function, field)) }
        if aggregation.countsGroups { keys.insert("_count") }
        return keys
    }

    /// The recorded type of a field (built-in fields included), `nil` when unknown.
    private func type(of path: FieldPath) -> FieldType? {
        guard !path.isNested else { return nil }
        return ClassSchema.builtInFields[path.root] ?? schema?.type(of: path.root)
    }

    private func check(_ function: Aggregation.Function, _ field: FieldPath) throws(APIError) {
        guard let type = type(of: field) else { return }
        switch function {
        case .sum, .average:
            guard type == .number else { throw invalid("\(function.rawValue) works on Number fields only, and '\(field)' is a \(type.name)") }
        case .maximum, .minimum:
            guard [.number, .string, .date].contains(type) else {
                throw invalid("\(function == .maximum ? "max" : "min") works on Number, String and Date fields only, and '\(field)' is a \(type.name)")
            }
        }
    }

    /// `having` may compare result keys with constants, combined with `$and`, `$or` and `$nor`.
    private func check(_ condition: Condition, _ keys: Set<String>) throws(APIError) {
        switch condition {
        case .always: return
        case .and(let parts), .or(let parts), .nor(let parts):
            for part in parts { try check(part, keys) }
        case .compare(let path, _, _), .inList(let path, _, _), .exists(let path, _):
            guard keys.contains(path.description) else {
                throw invalid("having names '\(path)', which is not a result key (\(keys.sorted().joined(separator: ", ")))")
            }
        default:
            throw invalid("having supports comparisons, $in, $nin, $exists, $and, $or and $nor only")
        }
    }

    private func invalid(_ detail: String) -> APIError {
        APIError(.invalidQuery, "Invalid statistics query: \(detail).")
    }
}
