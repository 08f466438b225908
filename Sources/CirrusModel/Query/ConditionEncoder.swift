/// Encoding a ``Condition`` as the `where` JSON that ``Condition/init(where:options:)`` decodes.
extension Condition {
    /// The `where` of this condition in LeanCloud's REST form, the inverse of ``init(where:options:)``: the
    /// conditions of an AND on different fields, or on one field with different operators, share one object
    /// (`{"age":{"$gte":18,"$lt":65},"city":"Paris"}`, as the SDKs write them); an AND whose parts cannot share one
    /// is `$and`. Distances are written in radians.
    public var wire: JSON {
        ConditionEncoder.object(self).map(JSON.object) ?? ["$and": .array(ConditionEncoder.parts(self).map(\.wire))]
    }
}

/// The members of `where` objects, and the merging of an AND's parts into one.
enum ConditionEncoder {
    /// The members of the one object that says `condition`, or `nil` for an AND whose parts collide.
    static func object(_ condition: Condition) -> [String: JSON]? {
        switch condition {
        case .always: return [:]
        case .and(let parts):
            var merged: [String: JSON] = [:]
            for part in parts {
                guard let members = object(part), let combined = merge(merged, members) else { return nil }
                merged = combined
            }
            return merged
        case .or(let parts): return ["$or": .array(parts.map(\.wire))]
        case .nor(let parts): return ["$nor": .array(parts.map(\.wire))]
        case .relatedTo(let pointer, let key): return ["$relatedTo": ["object": pointer.wire, "key": .string(key)]]
        default: return field(condition)
        }
    }

    /// The parts of an AND, written one object each under `$and`.
    static func parts(_ condition: Condition) -> [Condition] {
        if case .and(let parts) = condition { return parts }
        return [condition]
    }

    /// `{"<path>": <operand or operators>}` of a condition on one field.
    private static func field(_ condition: Condition) -> [String: JSON] {
        switch condition {
        case .compare(let path, .equal, let value): [path.description: value.wire]
        case .compare(let path, let comparison, let value): on(path, [comparison.rawValue: value.wire])
        case .inList(let path, let values, let negated): on(path, [negated ? "$nin" : "$in": .array(values.map(\.wire))])
        case .containsAll(let path, let values): on(path, ["$all": .array(values.map(\.wire))])
        case .exists(let path, let flag): on(path, ["$exists": .bool(flag)])
        case .size(let path, let count): on(path, ["$size": .int(count)])
        case .regex(let path, let pattern, let options):
            on(path, options.isEmpty ? ["$regex": .string(pattern)] : ["$regex": .string(pattern), "$options": .string(options)])
        case .inQuery(let path, let query, let negated): on(path, [negated ? "$notInQuery" : "$inQuery": query.wire])
        case .select(let path, let query, let key, let negated):
            on(path, [negated ? "$dontSelect" : "$select": ["query": query.wire, "key": .string(key.description)]])
        case .near(let path, let center, let maximum, let minimum): on(path, near(center, maximum, minimum))
        case .withinBox(let path, let southwest, let northeast):
            on(path, ["$within": ["$box": [Value.geoPoint(southwest).wire, Value.geoPoint(northeast).wire]]])
        case .withinPolygon(let path, let vertices): on(path, ["$geoWithin": ["$polygon": .array(vertices.map { Value.geoPoint($0).wire })]])
        case .withinSphere(let path, let center, let radius):
            on(path, ["$geoWithin": ["$centerSphere": [Value.geoPoint(center).wire, .double(radius)]]])
        case .text(let path, let search): on(path, ["$text": search.wire])
        case .always, .and, .or, .nor, .relatedTo: [:]
        }
    }

    private static func on(_ path: FieldPath, _ operators: [String: JSON]) -> [String: JSON] {
        [path.description: .object(operators)]
    }

    private static func near(_ center: GeoPoint, _ maximum: Double?, _ minimum: Double?) -> [String: JSON] {
        var operators: [String: JSON] = ["$nearSphere": Value.geoPoint(center).wire]
        if let maximum { operators["$maxDistanceInRadians"] = .double(maximum) }
        if let minimum { operators["$minDistanceInRadians"] = .double(minimum) }
        return operators
    }

    /// `left` and `right` in one object: members on different keys side by side, the operators of one field together;
    /// `nil` when they name the same key twice (an equality and an operator on one field, one operator twice, two
    /// `$or`s).
    private static func merge(_ left: [String: JSON], _ right: [String: JSON]) -> [String: JSON]? {
        var merged = left
        for (key, value) in right {
            guard let existing = merged[key] else {
                merged[key] = value
                continue
            }
            guard !key.hasPrefix("$"), let ours = operators(existing), let theirs = operators(value),
                Set(ours.keys).isDisjoint(with: theirs.keys)
            else { return nil }
            merged[key] = .object(ours.merging(theirs) { first, _ in first })
        }
        return merged
    }

    /// The operators of a field's member, or `nil` when it is an operand (an equality).
    private static func operators(_ member: JSON) -> [String: JSON]? {
        guard case .object(let members) = member, members.keys.contains(where: { $0.hasPrefix("$") }) else { return nil }
        return members
    }
}

extension SubQuery {
    /// `{"className","where"}`, the `limit` when it is not the default 100 and the `skip` when there is one.
    public var wire: JSON {
        var members: [String: JSON] = ["className": .string(className), "where": condition.wire]
        if limit != 100 { members["limit"] = .int(Int64(limit)) }
        if skip != 0 { members["skip"] = .int(Int64(skip)) }
        return .object(members)
    }
}
