import CirrusModel

/// `where` predicates. Each leaf becomes the REST `where` JSON it stands for and is decoded by the REST decoder,
/// so statements and REST queries validate and mean exactly the same.
extension StatementCompiler {
    func compilePredicate(_ predicate: Predicate, insideCompound: Bool) throws(CloudQueryError) -> Condition {
        switch predicate {
        case .and(let parts):
            return .all(try parts.map { part throws(CloudQueryError) in try compilePredicate(part, insideCompound: insideCompound) })
        case .or(let parts):
            return .or(try parts.map { part throws(CloudQueryError) in try compilePredicate(part, insideCompound: true) })
        case .not(let inner):
            return .nor([try compilePredicate(inner, insideCompound: true)])
        case .compare(let column, let comparison, let value):
            return try leaf(column, [comparison.rawValue: try bind(value)])
        case .compareSelect(let column, let select, let negated):
            return try selectCondition(column, select, negated: negated, allowsObjects: false)
        case .like(let column, let pattern, let negated):
            let regex = LikePattern.regex(try string(pattern, for: "like"))
            return negate(.regex(try path(column), pattern: regex, options: "s"), negated)
        case .regexp(let column, let pattern, let negated):
            return negate(try leaf(column, ["$regex": .string(try string(pattern, for: "regexp"))]), negated)
        case .inList(let column, let values, let negated):
            return try leaf(column, [negated ? "$nin" : "$in": .array(try values.map { value throws(CloudQueryError) in try bind(value) })])
        case .inSelect(let column, let select, let negated):
            return try selectCondition(column, select, negated: negated, allowsObjects: true)
        case .exists(let column, let flag):
            return try leaf(column, ["$exists": .bool(flag)])
        case .all(let column, let values):
            return try leaf(column, ["$all": .array(try values.map { value throws(CloudQueryError) in try bind(value) })])
        case .size(let column, let count):
            return .size(try path(column), Int64(try integer(count, in: "size()")))
        case .related(let key, let object):
            return try related(key, object)
        case .near(let column, let point, let minimum, let maximum):
            try refuseGeo(column, insideCompound)
            var members: [String: JSON] = ["$nearSphere": try geoPoint(point)]
            if let minimum { members["$minDistance" + Self.unitSuffix(minimum.unit)] = try bind(minimum.value) }
            if let maximum { members["$maxDistance" + Self.unitSuffix(maximum.unit)] = try bind(maximum.value) }
            return try leaf(column, .object(members))
        case .within(let column, let southwest, let northeast):
            try refuseGeo(column, insideCompound)
            return try leaf(column, ["$within": ["$box": [try geoPoint(southwest), try geoPoint(northeast)]]])
        }
    }

    /// `{column: operators}` decoded as REST `where`; errors point at the column.
    private func leaf(_ column: Column, _ operators: JSON) throws(CloudQueryError) -> Condition {
        do {
            return try Condition(where: .object([column.description: operators]), options: options)
        } catch {
            throw Self.failure(error, at: column.position)
        }
    }

    private func negate(_ condition: Condition, _ negated: Bool) -> Condition {
        negated ? .nor([condition]) : condition
    }

    /// A string operand (`like`, `regexp`).
    private func string(_ expression: Expression, for clause: String) throws(CloudQueryError) -> String {
        guard case .string(let text) = try bind(expression) else {
            throw CloudQueryError(at: expression.position, "\(clause) takes a string")
        }
        return text
    }

    /// `col [not] in (select …)`: `$inQuery` for `select *`, `$select` on the one selected key otherwise;
    /// `col = (select key …)` / `!=`: `$select` / `$dontSelect`.
    private func selectCondition(
        _ column: Column, _ select: SelectStatement, negated: Bool, allowsObjects: Bool
    ) throws(CloudQueryError) -> Condition {
        let target = try path(column)
        let sub = try subQuery(select)
        var keys: [Column] = []
        var selectsObjects = false
        for item in select.items {
            switch item {
            case .all: selectsObjects = true
            case .column(let key): keys.append(key)
            case .include: continue
            case .count(let position), .groupCount(let position):
                throw CloudQueryError(at: position, "a sub-select selects objects or one key, not a count")
            case .aggregate(_, let key):
                throw CloudQueryError(at: key.position, "a sub-select selects objects or one key, not statistics")
            }
        }
        if selectsObjects, keys.isEmpty, allowsObjects { return .inQuery(target, sub, negated: negated) }
        guard keys.count == 1, !selectsObjects else {
            throw CloudQueryError(at: select.className.position, allowsObjects ? "a sub-select selects * or exactly one key" : "a sub-select compared with = selects exactly one key")
        }
        return .select(target, sub, key: try path(keys[0]), negated: negated)
    }

    /// The inner query: its class, condition and limit (100 by default, at most 1000).
    private func subQuery(_ select: SelectStatement) throws(CloudQueryError) -> SubQuery {
        if Self.isStatistics(select) {
            throw CloudQueryError(at: select.className.position, "a sub-select cannot use statistics")
        }
        return SubQuery(className: select.className.name, condition: try condition(select.whereClause), limit: try limit(select.limit).limit)
    }

    /// `related key to pointer('C', 'id')`: the objects in that object's Relation `key`.
    private func related(_ key: Column, _ object: Expression) throws(CloudQueryError) -> Condition {
        guard key.segments.count == 1 else { throw CloudQueryError(at: key.position, "related takes a top-level Relation key, not '\(key)'") }
        let json: JSON = ["$relatedTo": ["object": try bind(object), "key": .string(key.segments[0])]]
        do {
            return try Condition(where: json, options: options)
        } catch {
            throw Self.failure(error, at: object.position)
        }
    }

    /// A point: `[longitude, latitude]` or `geopoint(longitude, latitude)` (or a bound GeoPoint).
    private func geoPoint(_ expression: Expression) throws(CloudQueryError) -> JSON {
        let json = try bind(expression)
        if case .array(let pair) = json {
            guard pair.count == 2, let longitude = pair[0].doubleValue, let latitude = pair[1].doubleValue else {
                throw CloudQueryError(at: expression.position, "a point is [longitude, latitude] or geopoint(longitude, latitude)")
            }
            return try validated(Self.geoPointJSON(longitude: longitude, latitude: latitude), at: expression.position)
        }
        guard json.isTyped(.geoPoint) else {
            throw CloudQueryError(at: expression.position, "a point is [longitude, latitude] or geopoint(longitude, latitude)")
        }
        return json
    }

    private func refuseGeo(_ column: Column, _ insideCompound: Bool) throws(CloudQueryError) {
        if insideCompound { throw CloudQueryError(at: column.position, "near and within cannot be used inside or or not") }
    }

    static func unitSuffix(_ unit: Distance.Unit) -> String {
        switch unit {
        case .radians: "InRadians"
        case .kilometers: "InKilometers"
        case .miles: "InMiles"
        }
    }

    /// BQL `having`: comparisons, `in` and `exists` on result keys (`_sumScore`, `_count`) and group keys.
    func havingCondition(_ predicate: Predicate) throws(CloudQueryError) -> Condition {
        switch predicate {
        case .and(let parts): return .all(try parts.map { part throws(CloudQueryError) in try havingCondition(part) })
        case .or(let parts): return .or(try parts.map { part throws(CloudQueryError) in try havingCondition(part) })
        case .not(let inner): return .nor([try havingCondition(inner)])
        case .compare(let column, let comparison, let value):
            return .compare(try resultKey(column), comparison, try havingValue(value))
        case .inList(let column, let values, let negated):
            return .inList(try resultKey(column), try values.map { value throws(CloudQueryError) in try havingValue(value) }, negated: negated)
        case .exists(let column, let flag):
            return .exists(try resultKey(column), flag)
        default:
            throw CloudQueryError(at: Self.position(of: predicate), "having takes comparisons, in and exists only")
        }
    }

    private func havingValue(_ expression: Expression) throws(CloudQueryError) -> Value {
        let json = try bind(expression)
        do {
            return try Value(wire: json, defaultOffsetMinutes: options.defaultOffsetMinutes)
        } catch {
            throw Self.failure(error, at: expression.position)
        }
    }

    /// Where a predicate starts.
    static func position(of predicate: Predicate) -> SourcePosition {
        switch predicate {
        case .and(let parts), .or(let parts): position(of: parts[0])
        case .not(let inner): position(of: inner)
        case .compare(let column, _, _), .compareSelect(let column, _, _), .like(let column, _, _), .regexp(let column, _, _),
            .inList(let column, _, _), .inSelect(let column, _, _), .exists(let column, _), .all(let column, _), .size(let column, _),
            .near(let column, _, _, _), .within(let column, _, _):
            column.position
        case .related(let key, _): key.position
        }
    }
}
