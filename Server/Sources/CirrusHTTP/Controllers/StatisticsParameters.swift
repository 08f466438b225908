import CirrusModel

/// The statistics parameters of a find (Bmob's, offered in every dialect): `sum`, `average`, `max`, `min`
/// (comma lists of fields), `groupby` (comma list), `groupcount=true`, `having` (a JSON condition on result keys)
/// and `order` on result keys, with `where`, `limit` and `skip`.
extension QueryParameters {
    static let statisticsFunctions: [(name: String, function: Aggregation.Function)] = [
        ("sum", .sum), ("average", .average), ("max", .maximum), ("min", .minimum),
    ]

    /// Whether the request asks for statistics instead of objects.
    var asksForStatistics: Bool {
        (Self.statisticsFunctions.map(\.name) + ["groupby"]).contains { !(request.query[$0] ?? "").isEmpty } || request.flag("groupcount")
    }

    /// The statistics query.
    /// - Throws: ``APIError`` for invalid fields, `having`, `order`, `where`, `limit` or `skip`.
    func aggregation(className: String) throws(APIError) -> Aggregation {
        var functions: [(function: Aggregation.Function, field: FieldPath)] = []
        for (name, function) in Self.statisticsFunctions {
            functions += try fieldList(name).map { (function, $0) }
        }
        let aggregation = Aggregation(
            className: className, condition: try condition(), groupBy: try fieldList("groupby"), functions: functions,
            countsGroups: request.flag("groupcount"), having: try having(), order: try resultOrder(), limit: try limit(), skip: try skip()
        )
        try limits.check(aggregation)
        return aggregation
    }

    /// A comma list of fields (dot paths allowed).
    private func fieldList(_ name: String) throws(APIError) -> [FieldPath] {
        var paths: [FieldPath] = []
        for raw in (request.query[name] ?? "").split(separator: ",") {
            let field = raw.trimmingCharacters(in: " ")
            guard !field.isEmpty else { continue }
            guard let path = try? FieldPath(parsing: field) else { throw APIError(.invalidQuery, "Invalid field '\(field)' in \(name).") }
            paths.append(path)
        }
        return paths
    }

    /// `order` over result keys (`-_sumScore`) and group keys.
    private func resultOrder() throws(APIError) -> [SortKey] {
        var keys: [SortKey] = []
        for raw in (request.query["order"] ?? "").split(separator: ",") {
            var name = raw.trimmingCharacters(in: " ")
            guard !name.isEmpty else { continue }
            let descending = name.hasPrefix("-")
            if descending || name.hasPrefix("+") { name.removeFirst() }
            keys.append(SortKey(path: try Self.resultKey(name, in: "order"), descending: descending))
        }
        return keys.withoutRepeatedKeys
    }

    /// A result key (`_sumScore`, `_count`) or a field path.
    static func resultKey(_ name: String, in parameter: String) throws(APIError) -> FieldPath {
        if name.hasPrefix("_"), FieldName.isIdentifier("x" + name.dropFirst()) { return FieldPath(field: name) }
        guard let path = try? FieldPath(parsing: name) else { throw APIError(.invalidQuery, "Invalid key '\(name)' in \(parameter).") }
        return path
    }

    /// `having`: a JSON condition on result keys, or `nil`.
    private func having() throws(APIError) -> Condition? {
        guard let text = request.query["having"], !text.isEmpty else { return nil }
        let json: JSON
        do {
            json = try JSONParser.parse(text)
        } catch {
            // Bmob's Python SDK writes `having` as a Python dict literal.
            guard request.dialect == .bmob, let literal = try? JSONParser.parse(PythonLiteral.json(from: text)) else {
                throw APIError(.invalidJSON, "'having' is not valid JSON: \(error.description).")
            }
            json = literal
        }
        return try HavingDecoder(defaultOffsetMinutes: request.dialect.defaultOffsetMinutes).decode(json)
    }
}

/// Decodes `having`: like `where`, with result keys (`_sumScore`), comparisons, `$in`, `$nin`, `$exists`,
/// `$and`, `$or` and `$nor`.
struct HavingDecoder {
    let defaultOffsetMinutes: Int

    func decode(_ json: JSON) throws(APIError) -> Condition {
        switch json {
        case .null: return .always
        case .array(let items):
            var parts: [Condition] = []
            for item in items { parts.append(try decode(item)) }
            return .all(parts)
        case .object(let members):
            var parts: [Condition] = []
            for key in members.keys.sorted() { parts.append(try decodeMember(key, members[key]!)) }
            return .all(parts)
        default:
            throw invalid("'having' must be a JSON object")
        }
    }

    private func decodeMember(_ key: String, _ json: JSON) throws(APIError) -> Condition {
        switch key {
        case "$and", "$or", "$nor":
            guard case .array(let items) = json, !items.isEmpty else { throw invalid("\(key) needs a non-empty array") }
            var parts: [Condition] = []
            for item in items { parts.append(try decode(item)) }
            return key == "$or" ? .or(parts) : key == "$nor" ? .nor(parts) : .all(parts)
        default:
            guard !key.hasPrefix("$") else { throw invalid("unsupported operator \(key) in having") }
            let path = try QueryParameters.resultKey(key, in: "having")
            guard case .object(let operators) = json, operators.keys.contains(where: { $0.hasPrefix("$") }) else {
                return .compare(path, .equal, try operand(json))
            }
            var parts: [Condition] = []
            for op in operators.keys.sorted() { parts.append(try decodeOperator(op, operators[op]!, path)) }
            return .all(parts)
        }
    }

    private func decodeOperator(_ op: String, _ json: JSON, _ path: FieldPath) throws(APIError) -> Condition {
        if let comparison = Condition.Comparison(rawValue: op) { return .compare(path, comparison, try operand(json)) }
        switch op {
        case "$in", "$nin":
            guard case .array(let items) = json else { throw invalid("\(op) needs an array") }
            var values: [Value] = []
            for item in items { values.append(try operand(item)) }
            return .inList(path, values, negated: op == "$nin")
        case "$exists":
            guard let flag = json.boolValue else { throw invalid("$exists needs true or false") }
            return .exists(path, flag)
        default:
            throw invalid("unsupported operator \(op) in having")
        }
    }

    private func operand(_ json: JSON) throws(APIError) -> Value {
        do {
            return try Value(wire: json, defaultOffsetMinutes: defaultOffsetMinutes)
        } catch {
            throw invalid("bad value in having: \(error.message)")
        }
    }

    private func invalid(_ detail: String) -> APIError {
        APIError(.invalidQuery, "Invalid query: \(detail).")
    }
}
