package import CirrusModel

/// SQLite with JSON1: documents are JSON text, paths are `$."a"[0]."b"`, regexes go through the
/// `cirrus_regexp(pattern, options, text)` function that the SQLite adapter registers.
package struct SQLiteDialect: SQLDialect {
    package init() {}

    package var name: String { "sqlite" }
    package var searchFlavor: any SearchFlavor { SQLiteSearchFlavor() }
    package var readsJSONNullAsSQLNull: Bool { true }
    package var documentColumnType: String { "TEXT" }
    package var integerColumnType: String { "INTEGER" }
    package var serialPrimaryKey: String { "INTEGER PRIMARY KEY AUTOINCREMENT" }

    package func placeholder(_ position: Int) -> String { "?" }

    // MARK: Paths

    /// Numeric segments below the top level may index an array or name an object key; both readings are
    /// produced (the index reading first) for up to three such segments.
    func pathVariants(_ path: FieldPath) -> [String] {
        var variants = ["$"]
        var numericCount = 0
        for (position, segment) in path.segments.enumerated() {
            let quoted = ".\"" + segment + "\""
            if position > 0, FieldPath.isIndex(segment), numericCount < 3 {
                numericCount += 1
                variants = variants.map { $0 + "[\(segment)]" } + variants.map { $0 + quoted }
            } else {
                variants = variants.map { $0 + quoted }
            }
        }
        return variants
    }

    private func extract(_ function: String, column: String, path: FieldPath) -> SQLFragment {
        let calls = pathVariants(path).map { "\(function)(\(quote(column)), \(literal($0)))" }
        return SQLFragment(calls.count == 1 ? calls[0] : "COALESCE(" + calls.joined(separator: ", ") + ")")
    }

    /// The scalar value of a target (`json_extract`; objects and arrays come back as JSON text).
    func value(_ target: JSONTarget) -> SQLFragment {
        switch target.source {
        case .document(let column, let path): extract("json_extract", column: column, path: path)
        case .element(let alias): ("\(raw: alias).value" as SQLFragment)
        case .member(let base, let key): memberCall("json_extract", base, key)
        }
    }

    /// The JSON type name of a target (`json_type`), NULL when absent.
    func type(_ target: JSONTarget) -> SQLFragment {
        switch target.source {
        case .document(let column, let path): extract("json_type", column: column, path: path)
        case .element(let alias): ("\(raw: alias).type" as SQLFragment)
        case .member(let base, let key): memberCall("json_type", base, key)
        }
    }

    /// The value as JSON text with the JSON subtype (`->`), NULL when absent.
    func json(_ target: JSONTarget) -> SQLFragment {
        switch target.source {
        case .document(let column, let path):
            let calls = pathVariants(path).map { "(\(quote(column)) -> \(literal($0)))" }
            return SQLFragment(calls.count == 1 ? calls[0] : "COALESCE(" + calls.joined(separator: ", ") + ")")
        case .element(let alias):
            return ("CASE WHEN \(raw: alias).type IN ('object', 'array') THEN json(\(raw: alias).value) END" as SQLFragment)
        case .member(let base, let key):
            return "(\(json(base)) -> \(raw: literal("$.\"" + key + "\"")))"
        }
    }

    private func memberCall(_ function: String, _ base: JSONTarget, _ key: String) -> SQLFragment {
        if case .document(let column, let path) = base.source {
            return extract(function, column: column, path: FieldPath(path.segments + [key]))
        }
        let inner = json(base)
        return "\(raw: function)(\(inner), \(raw: literal("$.\"" + key + "\"")))"
    }

    // MARK: Reading

    package func target(column: String, path: FieldPath) -> JSONTarget {
        JSONTarget(.document(column: column, path: path))
    }

    package func member(_ key: String, of target: JSONTarget) -> JSONTarget {
        JSONTarget(.member(target, key))
    }

    package func hasKind(_ target: JSONTarget, _ kind: JSONKind) -> SQLFragment {
        let names: String
        switch kind {
        case .string: names = "= 'text'"
        case .number: names = "IN ('integer', 'real')"
        case .boolean: names = "IN ('true', 'false')"
        case .trueValue: names = "= 'true'"
        case .falseValue: names = "= 'false'"
        case .null: names = "= 'null'"
        case .object: names = "= 'object'"
        case .array: names = "= 'array'"
        }
        return "\(type(target)) \(raw: names)"
    }

    package func isPresent(_ target: JSONTarget) -> SQLFragment {
        "\(type(target)) IS NOT NULL"
    }

    package func compare(_ target: JSONTarget, _ op: ScalarOperator, _ operand: ScalarOperand) -> SQLFragment {
        if case .json(let document) = operand {
            return op == .equal ? sameTree(target, document) : "FALSE"
        }
        return "\(value(target)) \(raw: op.rawValue) \(bind: binding(operand))"
    }

    /// Whether `target` holds the JSON value `document`, compared as trees: object keys in any order and
    /// numbers by value (`1` equals `1.0`), as ``Value/isEquivalent(to:)``. Stored text cannot be compared
    /// directly, because `json_set` appends new keys to an object instead of keeping them sorted.
    private func sameTree(_ target: JSONTarget, _ document: JSON) -> SQLFragment {
        func nodes(_ source: SQLFragment) -> SQLFragment {
            "SELECT fullkey, CASE WHEN type IN ('integer', 'real') THEN 'number' ELSE type END, atom FROM json_tree(\(source))"
        }
        let stored = json(target)
        let given = SQLFragment.bind(.text(JSONWriter.string(document)))
        return "(NOT EXISTS (\(nodes(stored)) EXCEPT \(nodes(given))) AND NOT EXISTS (\(nodes(given)) EXCEPT \(nodes(stored))))"
    }

    package func compare(_ target: JSONTarget, in operands: [ScalarOperand]) -> SQLFragment {
        guard operands.count > SQLLists.inlineLength else {
            return "\(value(target)) IN (\(operands.map { SQLFragment.bind(binding($0)) }.joined(separator: ", ")))"
        }
        return isIn(value(target), operands.map(binding))
    }

    package func isIn(_ expression: SQLFragment, _ values: [SQLValue]) -> SQLFragment {
        SQLLists.isIn(expression, values) { array in "\(expression) IN (SELECT value FROM json_each(\(array)))" }
    }

    package var maximumParameters: Int { 32_766 }

    private func binding(_ operand: ScalarOperand) -> SQLValue {
        switch operand {
        case .string(let text): .text(text)
        case .int(let number): .int(number)
        case .double(let number): .double(number)
        case .json(let json): .text(JSONWriter.string(json))
        }
    }

    package func arrayCount(_ target: JSONTarget, equals count: Int64) -> SQLFragment {
        "(\(type(target)) = 'array' AND json_array_length(\(json(target))) = \(bind: .int(count)))"
    }

    package func stringValue(_ target: JSONTarget) -> SQLFragment {
        value(target)
    }

    /// `json_extract` is both the sort expression and the indexed one; SQLite sorts NULL lowest, as Cirrus does.
    package func typedSortTerm(_ target: JSONTarget, type: FieldType, descending: Bool) -> SQLFragment? { nil }

    package var indexOrderSuffix: String { "" }

    /// `json_extract` reads JSON `null` as SQL NULL, which no comparison matches.
    package func isAboveNull(_ target: JSONTarget) -> SQLFragment {
        "\(value(target)) IS NOT NULL"
    }

    /// SQLite has no inverted index on JSON arrays.
    package func arrayHoldsAnyPrefilter(_ target: JSONTarget, of strings: [String]) -> SQLFragment? { nil }

    package func arrayIndexExpression(_ target: JSONTarget) -> (method: String, expression: SQLFragment)? { nil }

    package func regexMatch(_ text: SQLFragment, pattern: String, options: String) -> SQLFragment {
        "cirrus_regexp(\(bind: .text(pattern)), \(bind: .text(options)), \(text))"
    }

    package func anyElement(of target: JSONTarget, alias: String, where condition: (JSONTarget) -> SQLFragment) -> SQLFragment {
        let element = JSONTarget(.element(alias: alias))
        return "(\(type(target)) = 'array' AND EXISTS (SELECT 1 FROM json_each(\(json(target))) AS \(raw: alias) WHERE \(condition(element))))"
    }

    package func holdsAll(_ target: JSONTarget, _ kind: JSONKind, _ operands: [ScalarOperand], alias: String) -> SQLFragment {
        let kinds = kind == .string ? "'text'" : "'integer', 'real'"
        let candidates: SQLFragment = "CASE WHEN \(type(target)) = 'array' THEN \(json(target)) WHEN \(type(target)) IS NOT NULL THEN json_array(\(json(target))) END"
        let list = SQLFragment.bind(.text(SQLLists.jsonArray(operands.map(binding))))
        return "((SELECT COUNT(DISTINCT \(raw: alias).value) FROM json_each(\(candidates)) AS \(raw: alias) WHERE \(raw: alias).type IN (\(raw: kinds)) "
            + "AND \(raw: alias).value IN (SELECT value FROM json_each(\(list)))) = \(bind: .int(Int64(operands.count))))"
    }

    /// Iterates the array with itself appended, or a one-element array of any other present value.
    package func itselfOrAnyElement(of target: JSONTarget, alias: String, where condition: (JSONTarget) -> SQLFragment) -> SQLFragment {
        let element = JSONTarget(.element(alias: alias))
        let kind = type(target)
        let value = json(target)
        let candidates: SQLFragment = "CASE WHEN \(kind) = 'array' THEN json_insert(\(value), '$[#]', \(value)) "
            + "WHEN \(kind) IS NOT NULL THEN json_array(\(value)) END"
        return "EXISTS (SELECT 1 FROM json_each(\(candidates)) AS \(raw: alias) WHERE \(condition(element)))"
    }

    package func sortExpression(_ target: JSONTarget) -> SQLFragment {
        value(target)
    }

    /// `json_extract(…)`, whatever the kind of value: one expression index serves every comparison.
    package func comparedExpressions(_ target: JSONTarget, textual: Bool) -> [SQLFragment] {
        [value(target)]
    }

    // MARK: Geo

    /// `cirrus_distance(lat1, lon1, lat2, lon2)`: radians of arc by the haversine formula, NULL unless all
    /// four arguments are numbers. The SQLite adapter registers it (``GeoPoint/arcDistance(latitude:longitude:toLatitude:longitude:)``).
    package static let distanceFunction = "cirrus_distance"

    /// `cirrus_in_polygon(lat, lon, polygon)`: 1 when the point is inside or on the polygon, given as JSON
    /// text `[[latitude, longitude], …]`, 0 otherwise, NULL for NULL coordinates. The SQLite adapter
    /// registers it (``GeoPoint/isInside(latitude:longitude:polygon:)``).
    package static let polygonFunction = "cirrus_in_polygon"

    package func doubleValue(_ target: JSONTarget) -> SQLFragment {
        value(target)
    }

    package func sphericalDistance(latitude: SQLFragment, longitude: SQLFragment, to center: GeoPoint) -> SQLFragment {
        "\(raw: Self.distanceFunction)(\(latitude), \(longitude), \(bind: .double(center.latitude)), \(bind: .double(center.longitude)))"
    }

    package func pointInPolygon(latitude: SQLFragment, longitude: SQLFragment, polygon: [GeoPoint]) -> SQLFragment {
        let vertices = JSON.array(polygon.map { .array([.double($0.latitude), .double($0.longitude)]) })
        return "\(raw: Self.polygonFunction)(\(latitude), \(longitude), \(bind: .text(JSONWriter.string(vertices)))) = 1"
    }

    // MARK: Writing

    package func jsonLiteral(_ json: JSON) -> SQLFragment {
        "json(\(bind: .text(JSONWriter.string(json))))"
    }

    package func documentParameter(_ json: JSON) -> SQLFragment {
        documentParameter(text: JSONWriter.string(json))
    }

    package func documentParameter(text: String) -> SQLFragment {
        .bind(.text(text))
    }

    package func documentText(_ column: String) -> String {
        quote(column)
    }

    package func setting(_ document: SQLFragment, column: String, path: FieldPath, to value: SQLFragment) -> SQLFragment {
        choosingPath(column: column, path: path) { jsonPath in "json_set(\(document), \(raw: literal(jsonPath)), \(value))" }
    }

    package func removing(_ document: SQLFragment, path: FieldPath) -> SQLFragment {
        choosingPath(column: "data", path: path) { jsonPath in "json_remove(\(document), \(raw: literal(jsonPath)))" }
    }

    /// Writes through the right reading of the first numeric segment below the top level, decided by the
    /// stored container's type; later numeric segments are read as array indexes.
    private func choosingPath(column: String, path: FieldPath, _ write: (String) -> SQLFragment) -> SQLFragment {
        let indexPath = pathVariants(path)[0]
        guard let split = path.segments.indices.dropFirst().first(where: { FieldPath.isIndex(path.segments[$0]) }) else {
            return write(indexPath)
        }
        let parent = FieldPath(Array(path.segments[..<split]))
        let parentPath = pathVariants(parent)[0]
        let keyReading = parentPath + ".\"" + path.segments[split] + "\"" + String(indexPath.dropFirst(parentPath.count + path.segments[split].count + 2))
        let parentType = extract("json_type", column: column, path: parent)
        return "CASE WHEN \(parentType) = 'array' THEN \(write(indexPath)) ELSE \(write(keyReading)) END"
    }

    /// `current + amount`; a missing or non-numeric current value counts as 0.
    package func incremented(_ current: JSONTarget, by amount: Value) -> SQLFragment {
        let start: SQLFragment = "CASE WHEN \(type(current)) IN ('integer', 'real') THEN \(value(current)) ELSE 0 END"
        return exactNumber("(\(start) + \(bind: numberBinding(amount)))")
    }

    /// A SQL number as a JSON value that reads back as the same number. `json_set` writes a real with
    /// 15 significant digits (0.1 + 0.2 would become 0.3), and SQLite's `printf` does not round 17 digits right at
    /// large exponents (`1.7976931348623157e308` printed as `…156e+308`), so reals are written by
    /// ``realTextFunction``; integers are kept as they are. A real beyond the largest double (SQLite's arithmetic
    /// overflows to infinity, which JSON cannot write) fails the statement with ``APIError/Reason/numberOutOfRange``,
    /// as PostgreSQL's `float8` arithmetic does.
    private func exactNumber(_ number: SQLFragment) -> SQLFragment {
        "json((SELECT CASE WHEN typeof(n) <> 'real' THEN n WHEN abs(n) > 1.7976931348623157e308 THEN \(SQLiteRefusal.call(.numberOutOfRange, in: self)) "
            + "ELSE \(raw: Self.realTextFunction)(n) END FROM (SELECT \(number) AS n)))"
    }

    /// `cirrus_real(n)`: a finite real as JSON number text with the fewest digits that read back as the same
    /// double (``realText(_:)``); the SQLite adapter registers it.
    package static let realTextFunction = "cirrus_real"

    /// The text ``realTextFunction`` returns: Swift's shortest round-trip form, which always has a point or an
    /// exponent (`3.0`, `1e+16`, `5e-324`), so it stays a real when SQLite reads it back.
    package static func realText(_ number: Double) -> String {
        number.description
    }

    /// The bit operation on the current value truncated toward zero; 0 when it is missing, not a number,
    /// or outside the 64-bit range (as ``FieldOperation/apply(to:)`` does).
    package func bitwise(_ current: JSONTarget, _ op: BitOperator, _ operand: Int64) -> SQLFragment {
        let kind = type(current)
        let number = value(current)
        let base: SQLFragment = "(CASE WHEN \(kind) = 'integer' THEN \(number) WHEN \(kind) = 'real' AND abs(\(number)) < 9223372036854775808.0 "
            + "THEN CAST(\(number) AS INTEGER) ELSE 0 END)"
        switch op {
        case .and: return "(\(base) & \(bind: .int(operand)))"
        case .or: return "(\(base) | \(bind: .int(operand)))"
        case .xor: return "((\(base) | \(bind: .int(operand))) - (\(base) & \(bind: .int(operand))))"
        }
    }

    private func numberBinding(_ amount: Value) -> SQLValue {
        switch amount {
        case .int(let number): .int(number)
        case .double(let number): .double(number)
        default: .int(0)
        }
    }

    /// The array at `current`; an empty one when the value is absent, null or not an array, as
    /// ``FieldOperation/apply(to:)`` treats it.
    private func arrayOrEmpty(_ current: JSONTarget) -> SQLFragment {
        "(CASE WHEN \(type(current)) = 'array' THEN \(json(current)) ELSE '[]' END)"
    }

    /// SQLite functions take at most 127 arguments and a compound SELECT at most 500 terms, so long lists
    /// are split into groups of this many elements.
    static let groupSize = 60

    package func appending(_ current: JSONTarget, _ elements: [Value]) -> SQLFragment {
        var call = arrayOrEmpty(current)
        for start in stride(from: 0, to: max(elements.count, 1), by: Self.groupSize) {
            var nested = "json_insert(\(call)" as SQLFragment
            for element in elements[start..<min(start + Self.groupSize, elements.count)] {
                nested.append(", '$[#]', \(jsonLiteral(element.wire))")
            }
            nested.append(")")
            call = nested
        }
        return call
    }

    package func appendingUnique(
        _ current: JSONTarget, _ elements: [Value], alias: String, isElement: (JSONTarget, Value) -> SQLFragment
    ) -> SQLFragment {
        let array = arrayOrEmpty(current)
        let element = JSONTarget(.element(alias: alias))
        var rows: [SQLFragment] = ["SELECT \(array) -> \(raw: alias).fullkey AS x FROM json_each(\(array)) AS \(raw: alias)"]
        let added: [SQLFragment] = elements.map { value in
            "SELECT \(bind: .text(JSONWriter.string(value.wire))) WHERE NOT EXISTS "
                + "(SELECT 1 FROM json_each(\(array)) AS \(raw: alias) WHERE \(isElement(element, value)))"
        }
        if added.count <= Self.groupSize {
            rows += added
        } else {
            for start in stride(from: 0, to: added.count, by: Self.groupSize) {
                rows.append("SELECT * FROM (\(Array(added[start..<min(start + Self.groupSize, added.count)]).joined(separator: " UNION ALL ")))")
            }
        }
        return "json((SELECT json_group_array(json(x)) FROM (\(rows.joined(separator: " UNION ALL ")))))"
    }

    package func removing(from current: JSONTarget, alias: String, where isRemoved: (JSONTarget) -> SQLFragment) -> SQLFragment {
        let array = arrayOrEmpty(current)
        let element = JSONTarget(.element(alias: alias))
        return "json((SELECT json_group_array(json(\(array) -> \(raw: alias).fullkey)) FROM json_each(\(array)) AS \(raw: alias) "
            + "WHERE NOT COALESCE(\(isRemoved(element)), FALSE)))"
    }
}

