import CirrusModel

/// Equality, ordering and membership.
extension ConditionCompiler {
    /// The built-in fields stored in their own columns, and the column names.
    static let builtInColumns: [String: String] = ["objectId": "id", "createdAt": "created_at", "updatedAt": "updated_at"]

    func compare(_ path: FieldPath, _ op: Condition.Comparison, _ value: Value) -> SQLFragment {
        if !path.isNested, let column = Self.builtInColumns[path.root] {
            return compareColumn(column, op, value)
        }
        switch op {
        case .equal: return equals(path, value)
        case .notEqual: return negate(equals(path, value))
        case .lessThan: return ordered(path, .lessThan, value)
        case .lessThanOrEqual: return ordered(path, .lessThanOrEqual, value)
        case .greaterThan: return ordered(path, .greaterThan, value)
        case .greaterThanOrEqual: return ordered(path, .greaterThanOrEqual, value)
        }
    }

    /// Field equality: `null` matches a missing field; array fields match when they contain the value,
    /// and an array value also matches the same array.
    func equals(_ path: FieldPath, _ value: Value) -> SQLFragment {
        if !path.isNested, let column = Self.builtInColumns[path.root] {
            return compareColumn(column, .equal, value)
        }
        if let membership = relationMembership(path, [value]) { return membership }
        if case .null = value {
            let field = target(path)
            return "(NOT \(dialect.isPresent(field)) OR \(dialect.hasKind(field, .null)))"
        }
        if let comparison = typedComparison(path, .equal, value) { return comparison }
        let elementMatch = onFieldOrElements(path) { matches($0, .equal, value) }
        if case .array = value, shape(of: path) == .array {
            return "(\(matches(target(path), .equal, value)) OR \(elementMatch))"
        }
        if case .string(let text) = value, let prefilter = arrayPrefilter(path, [text]) { return "(\(prefilter) AND \(elementMatch))" }
        return elementMatch
    }

    /// On a field the schema records as an Array, the dialect's index-friendly test that the array holds one of
    /// `strings`: a necessary condition put before the exact one, so that an inverted index (`cirrus index` on an
    /// Array field; GIN on PostgreSQL) narrows the rows the exact condition checks. Only strings: containment
    /// compares numbers by their decimal value and objects by inclusion, unlike the stores' own equality.
    func arrayPrefilter(_ path: FieldPath, _ strings: [String]) -> SQLFragment? {
        guard shape(of: path) == .array, !strings.isEmpty, strings.count <= SQLLists.inlineLength else { return nil }
        return dialect.arrayHoldsAnyPrefilter(target(path), of: strings)
    }

    func ordered(_ path: FieldPath, _ op: ScalarOperator, _ value: Value) -> SQLFragment {
        typedComparison(path, op, value) ?? onFieldOrElements(path) { matches($0, op, value) }
    }

    /// The bare comparison, without the JSON kind check, when the schema records the field as a Number, String or
    /// Date and the operand is of that kind: the field then holds only such values or `null`, and a `null` cannot
    /// match (equality never matches it; ordering only where the dialect reads it as SQL NULL). The bare form is
    /// exactly the expression `cirrus index` indexes, so the database can answer from the index alone.
    ///
    /// Where JSON `null` is a value (PostgreSQL's JSONB orders it below everything), strings and dates compare their
    /// text, which is SQL NULL for `null`, and an upper bound on a number also requires the value above `null`: a
    /// second bound on the same indexed expression, so the comparison stays one index range.
    func typedComparison(_ path: FieldPath, _ op: ScalarOperator, _ value: Value) -> SQLFragment? {
        guard shape(of: path) == .scalar, let type = schema?.type(at: path) else { return nil }
        let field = target(path)
        let number: ScalarOperand
        switch (type, value) {
        case (.number, .int(let integer)): number = .int(integer)
        case (.number, .double(let double)): number = .double(double)
        case (.string, .string(let text)): return dialect.compare(field, op, .string(text))
        case (.date, .date(let stamp)): return dialect.compare(dialect.member("iso", of: field), op, .string(stamp.iso8601))
        default: return nil
        }
        let comparison = dialect.compare(field, op, number)
        guard !dialect.readsJSONNullAsSQLNull, op == .lessThan || op == .lessThanOrEqual else { return comparison }
        return "(\(comparison) AND \(dialect.isAboveNull(field)))"
    }

    func matchesAny(_ path: FieldPath, _ values: [Value]) -> SQLFragment {
        if !path.isNested, let column = Self.builtInColumns[path.root] {
            let bound = values.compactMap { columnBinding(column, $0) }
            return bound.isEmpty ? "FALSE" : dialect.isIn(SQLFragment(dialect.quote(column)), bound)
        }
        guard !values.isEmpty else { return "FALSE" }
        if let membership = relationMembership(path, values) { return membership }
        let values = pointerIds(path, values)
        var conditions: [SQLFragment] = []
        if values.contains(.null) { conditions.append(equals(path, .null)) }
        let others = values.filter { $0 != .null }
        if !others.isEmpty {
            let elementMatch = onFieldOrElements(path) { matchesAny($0, others) }
            let strings = others.compactMap { value -> String? in if case .string(let text) = value { text } else { nil } }
            if strings.count == others.count, let prefilter = arrayPrefilter(path, strings) {
                conditions.append("(\(prefilter) AND \(elementMatch))")
            } else {
                conditions.append(elementMatch)
            }
        }
        // An array operand also matches an array field equal to it as a whole.
        let arrays = others.filter { if case .array = $0 { true } else { false } }
        if !arrays.isEmpty, shape(of: path) == .array {
            conditions += arrays.map { matches(target(path), .equal, $0) }
        }
        return conditions.count == 1 ? conditions[0] : conditions.combined("OR")
    }

    /// `$all` of distinct values: each equals the field or one of its elements. A long list of strings or numbers is
    /// one condition over one parameter, rather than a condition per value.
    func containsAll(_ path: FieldPath, _ values: [Value]) -> SQLFragment {
        let isColumnOrRelation: Bool
        switch schema?.type(of: path.root) {
        case .relation? where !path.isNested: isColumnOrRelation = true
        default: isColumnOrRelation = !path.isNested && Self.builtInColumns[path.root] != nil
        }
        guard values.count > SQLLists.inlineLength, !isColumnOrRelation else { return values.map { equals(path, $0) }.combined("AND") }
        let kinds = ValuesByKind(values, groupingPointers: false)
        var parts = kinds.rest.map { equals(path, $0) }
        if !kinds.strings.isEmpty { parts.append(dialect.holdsAll(target(path), .string, kinds.strings, alias: nextAlias())) }
        if !kinds.numbers.isEmpty { parts.append(dialect.holdsAll(target(path), .number, kinds.numbers, alias: nextAlias())) }
        return parts.count == 1 ? parts[0] : parts.combined("AND")
    }

    /// On a field the schema records as a Pointer, bare objectId strings stand for pointers to its target
    /// class (Bmob accepts `{"post": {"$in": ["<objectId>"]}}`).
    private func pointerIds(_ path: FieldPath, _ values: [Value]) -> [Value] {
        guard case .pointer(let targetClass)? = schema?.type(at: path) else { return values }
        return values.map { value in
            if case .string(let id) = value { return .pointer(Pointer(className: targetClass, objectId: id)) }
            return value
        }
    }

    /// One target against a list: strings, numbers and the ids of pointers to one class use `IN` lists (index
    /// friendly, and one parameter for a long list), the rest `OR`.
    private func matchesAny(_ target: JSONTarget, _ values: [Value]) -> SQLFragment {
        let kinds = ValuesByKind(values, groupingPointers: true)
        var conditions: [SQLFragment] = []
        if !kinds.strings.isEmpty { conditions.append("(\(dialect.hasKind(target, .string)) AND \(dialect.compare(target, in: kinds.strings)))") }
        if !kinds.numbers.isEmpty { conditions.append("(\(dialect.hasKind(target, .number)) AND \(dialect.compare(target, in: kinds.numbers)))") }
        for (className, ids) in kinds.pointers.sorted(by: { $0.key < $1.key }) {
            conditions.append(pointerAmong(target, className: className, ids: ids))
        }
        conditions += kinds.rest.map { matches(target, .equal, $0) }
        return conditions.count == 1 ? conditions[0] : conditions.combined("OR")
    }

    /// The target is a pointer to `className` with one of `ids`, as ``matches(_:_:_:)`` tests a single pointer.
    private func pointerAmong(_ target: JSONTarget, className: String, ids: [ScalarOperand]) -> SQLFragment {
        if ids.count == 1, case .string(let id) = ids[0] { return memberEquals(target, ["objectId": id, "className": className]) }
        let classMatches = dialect.compare(dialect.member("className", of: target), .equal, .string(className))
        return "(\(dialect.hasKind(target, .object)) AND \(dialect.compare(dialect.member("objectId", of: target), in: ids)) AND \(classMatches))"
    }

    /// One JSON target against one typed value, with the kind checked.
    func matches(_ target: JSONTarget, _ op: ScalarOperator, _ value: Value) -> SQLFragment {
        switch value {
        case .null:
            return op == .equal ? dialect.hasKind(target, .null) : "FALSE"
        case .bool(let flag):
            return op == .equal ? dialect.hasKind(target, flag ? .trueValue : .falseValue) : "FALSE"
        case .int(let number):
            return "(\(dialect.hasKind(target, .number)) AND \(dialect.compare(target, op, .int(number))))"
        case .double(let number):
            return "(\(dialect.hasKind(target, .number)) AND \(dialect.compare(target, op, .double(number))))"
        case .string(let text):
            return "(\(dialect.hasKind(target, .string)) AND \(dialect.compare(target, op, .string(text))))"
        case .date(let stamp):
            let iso = dialect.member("iso", of: target)
            return "(\(dialect.hasKind(target, .object)) AND \(dialect.compare(iso, op, .string(stamp.iso8601))))"
        case .pointer(let pointer):
            guard op == .equal else { return "FALSE" }
            return memberEquals(target, ["objectId": pointer.objectId, "className": pointer.className])
        case .file(let file):
            guard op == .equal else { return "FALSE" }
            if let id = file.id { return memberEquals(target, ["id": id]) }
            return memberEquals(target, ["name": file.name ?? "", "url": file.url ?? ""])
        case .geoPoint, .bytes, .relation, .array, .object:
            guard op == .equal else { return "FALSE" }
            let kind: JSONKind = if case .array = value { .array } else { .object }
            return "(\(dialect.hasKind(target, kind)) AND \(dialect.compare(target, .equal, .json(value.wire))))"
        }
    }

    private func memberEquals(_ target: JSONTarget, _ members: [String: String]) -> SQLFragment {
        let conditions = members.keys.sorted().map { key in
            dialect.compare(dialect.member(key, of: target), .equal, .string(members[key]!))
        }
        return "(\(dialect.hasKind(target, .object)) AND " + conditions.joined(separator: " AND ") + ")"
    }

    /// The value a built-in column compares with: `objectId` as text, the dates as milliseconds; `nil` for a value
    /// of another kind, which no object's column equals.
    func columnBinding(_ column: String, _ value: Value) -> SQLValue? {
        switch (column, value) {
        case ("id", .string(let id)): .text(id)
        case ("created_at", .date(let stamp)), ("updated_at", .date(let stamp)): .int(stamp.millisecondsSince1970)
        default: nil
        }
    }

    /// Built-in columns: `objectId` compares as text, the dates as milliseconds.
    func compareColumn(_ column: String, _ op: Condition.Comparison, _ value: Value) -> SQLFragment {
        guard let bound = columnBinding(column, value) else { return op == .notEqual ? "TRUE" : "FALSE" }
        let symbol: String
        switch op {
        case .equal: symbol = "="
        case .notEqual: symbol = "<>"
        case .lessThan: symbol = "<"
        case .lessThanOrEqual: symbol = "<="
        case .greaterThan: symbol = ">"
        case .greaterThanOrEqual: symbol = ">="
        }
        return "\(raw: dialect.quote(column)) \(raw: symbol) \(bind: bound)"
    }

    func exists(_ path: FieldPath, _ flag: Bool) -> SQLFragment {
        if !path.isNested, Self.builtInColumns[path.root] != nil { return flag ? "TRUE" : "FALSE" }
        let present = dialect.isPresent(target(path))
        return flag ? present : "NOT \(present)"
    }

    func regex(_ path: FieldPath, _ pattern: String, _ options: String) -> SQLFragment {
        if !path.isNested, path.root == "objectId" {
            return dialect.regexMatch(SQLFragment(dialect.quote("id")), pattern: pattern, options: options)
        }
        return onFieldOrElements(path) { element in
            "(\(dialect.hasKind(element, .string)) AND \(dialect.regexMatch(dialect.stringValue(element), pattern: pattern, options: options)))"
        }
    }
}

/// A list of values split by how SQL compares them: strings and numbers as scalar lists, pointers (when grouped) as the
/// ids of each class, the rest one by one.
struct ValuesByKind {
    var strings: [ScalarOperand] = []
    var numbers: [ScalarOperand] = []
    var pointers: [String: [ScalarOperand]] = [:]
    var rest: [Value] = []

    init(_ values: [Value], groupingPointers: Bool) {
        for value in values {
            switch value {
            case .string(let text): strings.append(.string(text))
            case .int(let number): numbers.append(.int(number))
            case .double(let number): numbers.append(.double(number))
            case .pointer(let pointer) where groupingPointers: pointers[pointer.className, default: []].append(.string(pointer.objectId))
            default: rest.append(value)
            }
        }
    }
}

extension ScalarOperator {
    init(_ comparison: Condition.Comparison) {
        switch comparison {
        case .lessThan: self = .lessThan
        case .lessThanOrEqual: self = .lessThanOrEqual
        case .greaterThan: self = .greaterThan
        case .greaterThanOrEqual: self = .greaterThanOrEqual
        case .equal, .notEqual: self = .equal
        }
    }
}
