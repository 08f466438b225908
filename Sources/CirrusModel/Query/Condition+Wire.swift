/// Decoding the `where` JSON of LeanCloud, Parse and Bmob into a ``Condition``.
extension Condition {
    /// Decodes `where`: a JSON object, or an array meaning AND of its objects.
    /// - Parameter defaultOffsetMinutes: the zone of dates written without one.
    /// - Throws: ``APIError`` with reason ``APIError/Reason/invalidQuery`` for unknown operators or bad operands.
    public init(where json: JSON, defaultOffsetMinutes: Int = 0) throws(APIError) {
        try self.init(where: json, options: ConditionOptions(defaultOffsetMinutes: defaultOffsetMinutes))
    }

    /// Decodes `where` with dialect options, and checks it against ``ConditionOptions/limits``.
    /// - Throws: ``APIError`` with reason ``APIError/Reason/invalidQuery`` for unknown operators or bad operands,
    ///   ``APIError/Reason/queryTooComplex`` for a condition beyond a limit.
    public init(where json: JSON, options: ConditionOptions) throws(APIError) {
        self = try ConditionDecoder(options: options, insideCompound: false).decode(json)
        try options.limits.check(self)
    }
}

/// How a dialect reads `where`.
public struct ConditionOptions: Sendable, Hashable {
    /// The zone of dates written without one, in minutes east of UTC (Bmob: Beijing time).
    public var defaultOffsetMinutes: Int
    /// The maximum distance of `$nearSphere` without one, in radians (Bmob: 100 km); `nil` for none.
    public var defaultMaximumDistance: Double?
    /// The bounds a `where` is checked against.
    public var limits: QueryLimits
    /// Whether `$all` takes one value as well as an array, meaning the array of it (Bmob: `{"skill":{"$all":"P1"}}`,
    /// seed 004 L794).
    public var allowsScalarAll: Bool

    public init(
        defaultOffsetMinutes: Int = 0, defaultMaximumDistance: Double? = nil, limits: QueryLimits = QueryLimits(), allowsScalarAll: Bool = false
    ) {
        self.defaultOffsetMinutes = defaultOffsetMinutes
        self.defaultMaximumDistance = defaultMaximumDistance
        self.limits = limits
        self.allowsScalarAll = allowsScalarAll
    }
}

extension Value {
    /// Whether ordering operators (`$lt`, …) accept this value.
    var isOrderable: Bool {
        switch self {
        case .int, .double, .string, .date: true
        default: false
        }
    }
}

struct ConditionDecoder {
    let options: ConditionOptions
    /// Whether the decoder is inside `$or`/`$and`/`$nor`, where geo constraints are not allowed.
    let insideCompound: Bool

    var defaultOffsetMinutes: Int { options.defaultOffsetMinutes }

    func decode(_ json: JSON) throws(APIError) -> Condition {
        switch json {
        case .object(let members): return try decodeObject(members)
        case .array(let items):
            var parts: [Condition] = []
            for item in items { parts.append(try decode(item)) }
            return .all(parts)
        case .null: return .always
        default: throw invalid("'where' must be a JSON object or an array of objects")
        }
    }

    private func decodeObject(_ members: [String: JSON]) throws(APIError) -> Condition {
        try checkCount(members.count)
        var parts: [Condition] = []
        for key in members.keys.sorted() {
            let value = members[key]!
            switch key {
            case "$or": parts.append(.or(try decodeList(value, key)))
            case "$and": parts.append(.all(try decodeList(value, key)))
            case "$nor": parts.append(.nor(try decodeList(value, key)))
            case "$relatedTo": parts.append(try relatedTo(value))
            default:
                guard !key.hasPrefix("$") else { throw invalid("unsupported operator \(key)") }
                parts.append(try decodeField(key, value))
            }
        }
        return .all(parts)
    }

    private func decodeList(_ json: JSON, _ key: String) throws(APIError) -> [Condition] {
        guard case .array(let items) = json, !items.isEmpty else { throw invalid("\(key) needs a non-empty array") }
        try checkCount(items.count)
        let inner = ConditionDecoder(options: options, insideCompound: true)
        var parts: [Condition] = []
        for item in items { parts.append(try inner.decode(item)) }
        return parts
    }

    private func decodeField(_ key: String, _ json: JSON) throws(APIError) -> Condition {
        let path = try fieldPath(key)
        // Any `$` key makes an operator object (stored objects cannot hold such keys); every key must then
        // be an operator, whatever the order of the members.
        guard case .object(let members) = json, members.keys.contains(where: { $0.hasPrefix("$") }) else {
            return .compare(path, .equal, try operand(json, for: path))
        }
        if members["$options"] != nil, members["$regex"] == nil { throw invalid("$options needs $regex on '\(path)'") }
        var parts: [Condition] = []
        let options = members["$options"]?.stringValue ?? ""
        if members["$nearSphere"] != nil { parts.append(try near(path, members)) }
        for op in members.keys.sorted() where op != "$options" && !Self.nearKeys.contains(op) {
            parts.append(try decodeOperator(op, members[op]!, path: path, options: options))
        }
        return .all(parts)
    }

    private func decodeOperator(_ op: String, _ json: JSON, path: FieldPath, options: String) throws(APIError) -> Condition {
        if let comparison = Condition.Comparison(rawValue: op) {
            let value = try operand(json, for: path)
            if comparison != .equal, comparison != .notEqual, !value.isOrderable {
                throw invalid("\(op) compares numbers, strings or dates only")
            }
            return .compare(path, comparison, value)
        }
        switch op {
        case "$in", "$nin": return .inList(path, try operands(json, op, for: path), negated: op == "$nin")
        case "$all":
            if self.options.allowsScalarAll, json.arrayValue == nil { return .containsAll(path, [try operand(json, for: path)]) }
            return .containsAll(path, try operands(json, op, for: path))
        case "$exists":
            guard let flag = json.boolValue else { throw invalid("$exists needs true or false") }
            return .exists(path, flag)
        case "$size":
            guard let count = json.intValue, count >= 0 else { throw invalid("$size needs a non-negative integer") }
            return .size(path, count)
        case "$regex":
            guard let pattern = json.stringValue else { throw invalid("$regex needs a string") }
            return try regex(path, pattern, options)
        case "$inQuery", "$notInQuery": return .inQuery(path, try subQuery(json, op), negated: op == "$notInQuery")
        case "$select", "$dontSelect": return try select(path, json, op)
        case "$within": return try withinBox(path, json)
        case "$geoWithin": return try geoWithin(path, json)
        case "$text": return .text(path, try TextSearch(field: path, operand: json))
        default:
            throw invalid("unsupported operator \(op) on '\(path)'")
        }
    }

    private func regex(_ path: FieldPath, _ pattern: String, _ options: String) throws(APIError) -> Condition {
        guard options.allSatisfy({ "imxsu".contains($0) }) else { throw invalid("$options may contain only i, m, x, s and u") }
        try self.options.limits.checkRegex(pattern)
        try RegexPattern.validate(pattern, options: options)
        return .regex(path, pattern: pattern, options: options)
    }

    func fieldPath(_ key: String) throws(APIError) -> FieldPath {
        if FieldName.isIdentifier(key) { return FieldPath(field: key) }
        do {
            return try FieldPath(parsing: key)
        } catch {
            throw invalid("invalid key '\(key)'")
        }
    }

    private func operands(_ json: JSON, _ op: String, for path: FieldPath) throws(APIError) -> [Value] {
        guard case .array(let items) = json else { throw invalid("\(op) needs an array") }
        guard items.count <= options.limits.maximumListValues else {
            throw QueryLimits.exceeded("the number of values of \(op)", items.count, limit: options.limits.maximumListValues)
        }
        var values: [Value] = []
        for item in items { values.append(try operand(item, for: path)) }
        return values
    }

    /// A constant; dates on `createdAt`/`updatedAt` may also be sent as bare ISO strings.
    func operand(_ json: JSON, for path: FieldPath) throws(APIError) -> Value {
        if !path.isNested, path.root == "createdAt" || path.root == "updatedAt", case .string(let text) = json,
            let stamp = Timestamp(parsing: text, defaultOffsetMinutes: defaultOffsetMinutes)
        {
            return .date(stamp)
        }
        do {
            return try Value(wire: json, defaultOffsetMinutes: defaultOffsetMinutes)
        } catch {
            throw invalid("bad value for '\(path)': \(error.message)")
        }
    }

    /// Refuses an object or list with more members than a whole `where` may hold conditions, before decoding them
    /// (``QueryLimits/check(_:)-(Condition)`` counts them exactly afterwards).
    private func checkCount(_ count: Int) throws(APIError) {
        guard count <= options.limits.maximumConditions else {
            throw QueryLimits.exceeded("the number of conditions in the where", count, limit: options.limits.maximumConditions)
        }
    }

    func invalid(_ detail: String) -> APIError {
        APIError(.invalidQuery, "Invalid query: \(detail).")
    }
}
