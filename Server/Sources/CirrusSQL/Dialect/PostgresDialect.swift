package import CirrusModel

/// PostgreSQL with JSONB: paths are text arrays (`#> '{a,0,b}'`, where numeric segments index arrays
/// and name keys of objects alike), comparisons are JSONB comparisons, strings order with `COLLATE "C"`
/// like SQLite's binary order, and nested writes go through the `cirrus_set_path` and
/// `cirrus_remove_path` functions that the system migrations install, which behave like SQLite's
/// `json_set` and `json_remove` (see ``SystemSchema``).
package struct PostgresDialect: SQLDialect {
    package init() {}

    package var name: String { "postgres" }
    package var searchFlavor: any SearchFlavor { PostgresSearchFlavor() }
    package var readsJSONNullAsSQLNull: Bool { false }
    package var documentColumnType: String { "JSONB" }
    package var integerColumnType: String { "BIGINT" }
    package var serialPrimaryKey: String { "BIGSERIAL PRIMARY KEY" }

    package func placeholder(_ position: Int) -> String { "$\(position)" }

    /// `'{"a","b"}'`: segments are validated to hold no quotes or backslashes.
    func pathLiteral(_ path: FieldPath) -> String {
        literal("{" + path.segments.map { "\"" + $0 + "\"" }.joined(separator: ",") + "}")
    }

    /// The JSONB value of a target, NULL when absent.
    func json(_ target: JSONTarget) -> SQLFragment {
        switch target.source {
        case .document(let column, let path): ("(\(raw: quote(column)) #> \(raw: pathLiteral(path)))" as SQLFragment)
        case .element(let alias): ("\(raw: alias).value" as SQLFragment)
        case .member(let base, let key): "(\(json(base)) -> \(raw: literal(key)))"
        }
    }

    /// The value of a target as text (strings unquoted), NULL when absent.
    func text(_ target: JSONTarget) -> SQLFragment {
        switch target.source {
        case .document(let column, let path): ("(\(raw: quote(column)) #>> \(raw: pathLiteral(path)))" as SQLFragment)
        case .element(let alias): ("(\(raw: alias).value #>> '{}')" as SQLFragment)
        case .member(let base, let key): "(\(json(base)) ->> \(raw: literal(key)))"
        }
    }

    package func target(column: String, path: FieldPath) -> JSONTarget {
        JSONTarget(.document(column: column, path: path))
    }

    package func member(_ key: String, of target: JSONTarget) -> JSONTarget {
        JSONTarget(.member(target, key))
    }

    package func hasKind(_ target: JSONTarget, _ kind: JSONKind) -> SQLFragment {
        switch kind {
        case .string: "jsonb_typeof(\(json(target))) = 'string'"
        case .number: "jsonb_typeof(\(json(target))) = 'number'"
        case .boolean: "jsonb_typeof(\(json(target))) = 'boolean'"
        case .trueValue: "\(json(target)) = 'true'::jsonb"
        case .falseValue: "\(json(target)) = 'false'::jsonb"
        case .null: "jsonb_typeof(\(json(target))) = 'null'"
        case .object: "jsonb_typeof(\(json(target))) = 'object'"
        case .array: "jsonb_typeof(\(json(target))) = 'array'"
        }
    }

    package func isPresent(_ target: JSONTarget) -> SQLFragment {
        "\(json(target)) IS NOT NULL"
    }

    package func compare(_ target: JSONTarget, _ op: ScalarOperator, _ operand: ScalarOperand) -> SQLFragment {
        if case .string(let string) = operand, op != .equal {
            return "\(text(target)) COLLATE \"C\" \(raw: op.rawValue) \(bind: .text(string))"
        }
        return "\(json(target)) \(raw: op.rawValue) \(jsonb(operand))"
    }

    /// JSONB orders `null` below every other value.
    package func isAboveNull(_ target: JSONTarget) -> SQLFragment {
        "\(json(target)) > 'null'::jsonb"
    }

    package func compare(_ target: JSONTarget, in operands: [ScalarOperand]) -> SQLFragment {
        guard operands.count > SQLLists.inlineLength else { return "\(json(target)) IN (\(operands.map(jsonb).joined(separator: ", ")))" }
        let array = JSON.array(operands.map(Self.json))
        return "\(json(target)) IN (SELECT jsonb_array_elements(\(bind: .text(JSONWriter.string(array)))::jsonb))"
    }

    /// Long lists unpack their JSON array as the type of the values: text, `bigint` or `float8`.
    package func isIn(_ expression: SQLFragment, _ values: [SQLValue]) -> SQLFragment {
        let type = switch values.first {
        case .int?: "::bigint"
        case .double?: "::float8"
        default: ""
        }
        return SQLLists.isIn(expression, values) { array in "\(expression) IN (SELECT (jsonb_array_elements_text(\(array)::jsonb))\(raw: type))" }
    }

    package var maximumParameters: Int { 65_535 }

    private func jsonb(_ operand: ScalarOperand) -> SQLFragment {
        jsonLiteral(Self.json(operand))
    }

    private static func json(_ operand: ScalarOperand) -> JSON {
        switch operand {
        case .string(let string): .string(string)
        case .int(let number): .int(number)
        case .double(let number): .double(number)
        case .json(let value): value
        }
    }

    package func arrayCount(_ target: JSONTarget, equals count: Int64) -> SQLFragment {
        "(CASE WHEN jsonb_typeof(\(json(target))) = 'array' THEN jsonb_array_length(\(json(target))) END = \(bind: .int(count)))"
    }

    package func stringValue(_ target: JSONTarget) -> SQLFragment {
        text(target)
    }

    /// A Number field by its JSONB value (JSONB orders numbers by value, and `null` below them), a String or a Date's
    /// `iso` by its text with `COLLATE "C"` (byte order, as `convert_to` in ``sortExpression(_:)``); missing values
    /// first ascending and last descending, as ``sortExpression(_:)`` ranks them.
    package func typedSortTerm(_ target: JSONTarget, type: FieldType, descending: Bool) -> SQLFragment? {
        let direction = descending ? " DESC NULLS LAST" : " ASC NULLS FIRST"
        switch type {
        case .number: return "\(json(target))\(raw: direction)"
        case .string, .date: return "\(text(target)) COLLATE \"C\"\(raw: direction)"
        default: return nil
        }
    }

    package var indexOrderSuffix: String { " NULLS FIRST" }

    /// JSONB containment, `("data" #> '{"tags"}') @> '["a"]'`, one per string, which a GIN index on the field answers.
    package func arrayHoldsAnyPrefilter(_ target: JSONTarget, of strings: [String]) -> SQLFragment? {
        guard !strings.isEmpty else { return nil }
        let tests: [SQLFragment] = strings.map { "\(json(target)) @> \(bind: .text(JSONWriter.string(.array([.string($0)]))))::jsonb" }
        return tests.count == 1 ? "(\(tests[0]))" : tests.combined("OR")
    }

    /// A GIN index (the default `jsonb_ops`) on the field's JSONB value.
    package func arrayIndexExpression(_ target: JSONTarget) -> (method: String, expression: SQLFragment)? {
        ("gin", json(target))
    }

    package func regexMatch(_ text: SQLFragment, pattern: String, options: String) -> SQLFragment {
        "\(text) ~ \(bind: .text(PostgresRegex.translate(pattern, options: options)))"
    }

    package func anyElement(of target: JSONTarget, alias: String, where condition: (JSONTarget) -> SQLFragment) -> SQLFragment {
        let element = JSONTarget(.element(alias: alias))
        return "EXISTS (SELECT 1 FROM jsonb_array_elements(\(arrayOrEmpty(target))) AS \(raw: alias)(value) WHERE \(condition(element)))"
    }

    package func holdsAll(_ target: JSONTarget, _ kind: JSONKind, _ operands: [ScalarOperand], alias: String) -> SQLFragment {
        let value = json(target)
        let candidates: SQLFragment = "CASE WHEN jsonb_typeof(\(value)) = 'array' THEN \(value) WHEN \(value) IS NOT NULL THEN jsonb_build_array(\(value)) END"
        let list = SQLFragment.bind(.text(JSONWriter.string(.array(operands.map(Self.json)))))
        // INTERSECT hashes both sides: an `IN (SELECT …)` here ran as a nested loop over the list for every element
        // (10 000 values against 10 000 elements took half a minute).
        return "((SELECT COUNT(*) FROM (SELECT \(raw: alias).value FROM jsonb_array_elements(\(candidates)) AS \(raw: alias)(value) "
            + "WHERE jsonb_typeof(\(raw: alias).value) = \(raw: literal(kind == .string ? "string" : "number")) "
            + "INTERSECT SELECT jsonb_array_elements(\(list)::jsonb)) AS \(raw: alias)_common) = \(bind: .int(Int64(operands.count))))"
    }

    /// Iterates the array with itself appended, or a one-element array of any other present value.
    package func itselfOrAnyElement(of target: JSONTarget, alias: String, where condition: (JSONTarget) -> SQLFragment) -> SQLFragment {
        let element = JSONTarget(.element(alias: alias))
        let value = json(target)
        let candidates: SQLFragment = "CASE WHEN jsonb_typeof(\(value)) = 'array' THEN \(value) || jsonb_build_array(\(value)) "
            + "WHEN \(value) IS NOT NULL THEN jsonb_build_array(\(value)) END"
        return "EXISTS (SELECT 1 FROM jsonb_array_elements(\(candidates)) AS \(raw: alias)(value) WHERE \(condition(element)))"
    }

    /// A row that orders values as SQLite orders `json_extract` results, so both stores sort alike:
    /// absent and `null` first, then numbers (booleans as 0 and 1), then strings, objects and arrays by
    /// the bytes of their text (strings unquoted), whatever the database collation.
    package func sortExpression(_ target: JSONTarget) -> SQLFragment {
        let value = json(target)
        let kind: SQLFragment = "jsonb_typeof(\(value))"
        return "ROW(CASE \(kind) WHEN 'number' THEN 1 WHEN 'boolean' THEN 1 WHEN 'string' THEN 2 WHEN 'object' THEN 2 "
            + "WHEN 'array' THEN 2 ELSE 0 END, "
            + "CASE \(kind) WHEN 'number' THEN \(value)::numeric WHEN 'boolean' THEN \(value)::boolean::int END, "
            + "CASE WHEN \(kind) IN ('string', 'object', 'array') THEN convert_to(\(value) #>> '{}', 'UTF8') END)"
    }

    package func jsonLiteral(_ json: JSON) -> SQLFragment {
        "\(bind: .text(JSONWriter.string(json)))::jsonb"
    }

    /// The JSONB value (equality, numbers) and, for textual values, the text with `COLLATE "C"` that ordered
    /// string comparisons use.
    package func comparedExpressions(_ target: JSONTarget, textual: Bool) -> [SQLFragment] {
        textual ? [json(target), "\(text(target)) COLLATE \"C\""] : [json(target)]
    }

    // MARK: Geo

    /// `float8` of a JSON number, NULL otherwise; `CASE` guards the cast.
    package func doubleValue(_ target: JSONTarget) -> SQLFragment {
        let value = json(target)
        return "CASE WHEN jsonb_typeof(\(value)) = 'number' THEN (\(value))::float8 END"
    }

    /// The haversine formula in plain SQL, with the same `least(1, …)` guard against rounding as
    /// ``GeoPoint/arcDistance(latitude:longitude:toLatitude:longitude:)``.
    package func sphericalDistance(latitude: SQLFragment, longitude: SQLFragment, to center: GeoPoint) -> SQLFragment {
        let centerLatitude: SQLFragment = "\(bind: .double(center.latitude))::float8"
        let centerLongitude: SQLFragment = "\(bind: .double(center.longitude))::float8"
        return "(2 * asin(least(1::float8, sqrt(power(sin(radians(\(centerLatitude) - \(latitude)) / 2), 2) "
            + "+ cos(radians(\(latitude))) * cos(radians(\(centerLatitude))) * power(sin(radians(\(centerLongitude) - \(longitude)) / 2), 2)))))"
    }

    /// The ray casting of ``GeoPoint/isInside(latitude:longitude:polygon:)`` in plain SQL, edge by edge, with the
    /// same arithmetic in the same order (IEEE doubles in both), so the boundary is inside exactly when it is in memory.
    /// PostgreSQL's geometric `<@ polygon` is not used: it compares with a tolerance of 1e-6 degrees.
    package func pointInPolygon(latitude: SQLFragment, longitude: SQLFragment, polygon: [GeoPoint]) -> SQLFragment {
        guard polygon.count >= 3 else { return "FALSE" }
        func number(_ value: Double) -> SQLFragment { "\(bind: .double(value))::float8" }
        var onEdges: [SQLFragment] = []
        var crossings: [SQLFragment] = []
        var previous = polygon[polygon.count - 1]
        for vertex in polygon {
            let (startX, startY, endX, endY) = (previous.longitude, previous.latitude, vertex.longitude, vertex.latitude)
            let scale = max(abs(endX - startX), abs(endY - startY), 1)
            onEdges.append(
                "(abs(\(number(endX - startX)) * (p.y - \(number(startY))) - \(number(endY - startY)) * (p.x - \(number(startX)))) "
                    + "<= \(number(1e-12 * scale)) AND p.x BETWEEN \(number(min(startX, endX))) AND \(number(max(startX, endX))) "
                    + "AND p.y BETWEEN \(number(min(startY, endY))) AND \(number(max(startY, endY))))"
            )
            if vertex.latitude != previous.latitude {
                crossings.append(
                    "CASE WHEN (\(number(vertex.latitude)) > p.y) <> (\(number(previous.latitude)) > p.y) AND p.x < \(number(vertex.longitude)) "
                        + "+ (p.y - \(number(vertex.latitude))) * \(number(previous.longitude - vertex.longitude)) "
                        + "/ \(number(previous.latitude - vertex.latitude)) THEN 1 ELSE 0 END"
                )
            }
            previous = vertex
        }
        let crossed: SQLFragment = crossings.isEmpty ? "FALSE" : "(\(crossings.combined("+"))) % 2 = 1"
        return "EXISTS (SELECT 1 FROM (SELECT \(longitude) AS x, \(latitude) AS y) AS p WHERE p.x IS NOT NULL AND p.y IS NOT NULL "
            + "AND (\(onEdges.combined("OR")) OR \(crossed)))"
    }

    package func documentParameter(_ json: JSON) -> SQLFragment {
        jsonLiteral(json)
    }

    package func documentParameter(text: String) -> SQLFragment {
        "\(bind: .text(text))::jsonb"
    }

    package func documentText(_ column: String) -> String {
        quote(column) + "::text"
    }

    package func setting(_ document: SQLFragment, column: String, path: FieldPath, to value: SQLFragment) -> SQLFragment {
        if path.isNested {
            return "cirrus_set_path(\(document), \(raw: pathLiteral(path)), \(value))"
        }
        return "jsonb_set(\(document), \(raw: pathLiteral(path)), \(value), true)"
    }

    /// Top-level keys are removed with `#-`; nested paths go through `cirrus_remove_path`, which leaves the
    /// document unchanged where `#-` would fail (a non-numeric segment inside an array).
    package func removing(_ document: SQLFragment, path: FieldPath) -> SQLFragment {
        if path.isNested {
            return "cirrus_remove_path(\(document), \(raw: pathLiteral(path)))"
        }
        return "(\(document) #- \(raw: pathLiteral(path)))"
    }

    /// SQLite's arithmetic: exact 64-bit integers when both numbers are integers, IEEE doubles as soon as one is
    /// not (`0.1 + 0.2` is `0.30000000000000004`, `1 + 1.0` is `2.0`); a missing or non-numeric current value
    /// counts as the integer 0. `cirrus_double_jsonb` writes a double as SQLite does (see ``SystemSchema``).
    package func incremented(_ current: JSONTarget, by amount: Value) -> SQLFragment {
        let value = json(current)
        let currentIsDouble: SQLFragment = "(jsonb_typeof(\(value)) = 'number' AND (\(value))::text ~ '[.eE]')"
        switch amount {
        case .int(let number):
            // Integers beyond 64 bits become doubles, as SQLite's integer arithmetic does on overflow.
            let sum: SQLFragment = "(\(numberOrZero(current)) + \(bind: .int(number))::numeric)"
            return "CASE WHEN \(currentIsDouble) THEN cirrus_double_jsonb((\(value))::float8 + \(bind: .int(number))::float8) "
                + "ELSE (SELECT CASE WHEN s BETWEEN -9223372036854775808 AND 9223372036854775807 THEN to_jsonb(s) "
                + "ELSE cirrus_double_jsonb(s::float8) END FROM (SELECT \(sum) AS s) AS total) END"
        case .double(let number):
            return "cirrus_double_jsonb((\(numberOrZero(current)))::float8 + \(bind: .double(number))::float8)"
        default:
            return "to_jsonb(\(numberOrZero(current)))"
        }
    }

    /// The current value truncated toward zero (as SQLite's `CAST(… AS INTEGER)`); 0 when it is missing,
    /// not a number, or outside the 64-bit range.
    package func bitwise(_ current: JSONTarget, _ op: BitOperator, _ operand: Int64) -> SQLFragment {
        let value = json(current)
        let integer: SQLFragment = "COALESCE(CASE WHEN jsonb_typeof(\(value)) = 'number' THEN CASE WHEN trunc(\(value)::numeric) "
            + "BETWEEN -9223372036854775808 AND 9223372036854775807 THEN trunc(\(value)::numeric)::bigint END END, 0)"
        return "to_jsonb(\(integer) \(raw: op.rawValue) \(bind: .int(operand))::bigint)"
    }

    /// The number at `target` as `numeric`, or 0 when it is missing or not a number. `CASE` (not `AND`)
    /// guards the cast, because PostgreSQL does not promise to evaluate `AND` from left to right.
    private func numberOrZero(_ target: JSONTarget) -> SQLFragment {
        let value = json(target)
        return "CASE WHEN jsonb_typeof(\(value)) = 'number' THEN \(value)::numeric ELSE 0 END"
    }

    private func arrayOrEmpty(_ target: JSONTarget) -> SQLFragment {
        "CASE WHEN jsonb_typeof(\(json(target))) = 'array' THEN \(json(target)) ELSE '[]'::jsonb END"
    }

    package func appending(_ current: JSONTarget, _ elements: [Value]) -> SQLFragment {
        "(\(arrayOrEmpty(current)) || \(jsonLiteral(.array(elements.map(\.wire)))))"
    }

    package func appendingUnique(
        _ current: JSONTarget, _ elements: [Value], alias: String, isElement: (JSONTarget, Value) -> SQLFragment
    ) -> SQLFragment {
        let array = arrayOrEmpty(current)
        return "(\(array) || COALESCE((SELECT jsonb_agg(n.value ORDER BY n.position) "
            + "FROM jsonb_array_elements(\(jsonLiteral(.array(elements.map(\.wire))))) WITH ORDINALITY AS n(value, position) "
            + "WHERE NOT EXISTS (SELECT 1 FROM jsonb_array_elements(\(array)) AS \(raw: alias)(value) "
            + "WHERE \(raw: alias).value = n.value)), '[]'::jsonb))"
    }

    package func removing(from current: JSONTarget, alias: String, where isRemoved: (JSONTarget) -> SQLFragment) -> SQLFragment {
        let element = JSONTarget(.element(alias: alias))
        return "(SELECT COALESCE(jsonb_agg(\(raw: alias).value ORDER BY \(raw: alias).position), '[]'::jsonb) "
            + "FROM jsonb_array_elements(\(arrayOrEmpty(current))) WITH ORDINALITY AS \(raw: alias)(value, position) "
            + "WHERE NOT COALESCE(\(isRemoved(element)), FALSE))"
    }
}

/// Turns a PCRE-style pattern with Mongo options into a PostgreSQL advanced regular expression.
enum PostgresRegex {
    static func translate(_ pattern: String, options given: String) -> String {
        // PostgreSQL takes embedded options only at the very start, so the pattern's own are merged with the query's.
        let (inline, pattern) = RegexPattern.leadingOptions(pattern)
        let options = given + inline
        var flags = ""
        let multiline = options.contains("m")
        let dotAll = options.contains("s")
        switch (multiline, dotAll) {
        case (false, false): flags += "p"
        case (true, false): flags += "n"
        case (true, true): flags += "w"
        case (false, true): break
        }
        if options.contains("i") { flags += "i" }
        if options.contains("x") { flags += "x" }
        let body = expandQuoting(pattern)
        return flags.isEmpty ? body : "(?\(flags))" + body
    }

    /// Rewrites `\Q…\E` literal spans with every metacharacter escaped (`#` and spaces too, which the
    /// `x` option would otherwise read as comments and padding).
    static func expandQuoting(_ pattern: String) -> String {
        let characters = Array(pattern)
        var result = ""
        var index = 0
        var quoting = false
        while index < characters.count {
            let character = characters[index]
            let next = index + 1 < characters.count ? characters[index + 1] : nil
            if character == "\\", next == "Q", !quoting {
                quoting = true
                index += 2
            } else if character == "\\", next == "E", quoting {
                quoting = false
                index += 2
            } else if quoting {
                result += RegexPattern.literal(character)
                index += 1
            } else {
                result.append(character)
                index += 1
            }
        }
        return result
    }
}
