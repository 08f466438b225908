/// A condition on objects: the `where` of a query, a conditional write, or a live-query subscription.
public indirect enum Condition: Sendable, Hashable {
    /// Matches every object (an empty `where`).
    case always
    case and([Condition])
    case or([Condition])
    /// `$nor`: matches when none of the parts match.
    case nor([Condition])
    /// Equality and ordering against a constant; equality on an array field means "contains".
    case compare(FieldPath, Comparison, Value)
    /// `$in` / `$nin`.
    case inList(FieldPath, [Value], negated: Bool)
    /// `$all`: the array contains every value.
    case containsAll(FieldPath, [Value])
    /// `$exists`.
    case exists(FieldPath, Bool)
    /// `$size`: the array has exactly this many elements.
    case size(FieldPath, Int64)
    /// `$regex` with `$options`.
    case regex(FieldPath, pattern: String, options: String)
    /// `$inQuery` / `$notInQuery`: the field points to an object (or holds pointers, one of which points to an
    /// object) that the sub-query finds.
    case inQuery(FieldPath, SubQuery, negated: Bool)
    /// `$select` / `$dontSelect`: the field equals the `key` of an object the sub-query finds.
    case select(FieldPath, SubQuery, key: FieldPath, negated: Bool)
    /// `$relatedTo`: the object is a member of `object`'s Relation field `key`.
    case relatedTo(Pointer, key: String)
    /// `$nearSphere`: within the distances (radians of arc on the sphere) from `point`; results come nearest
    /// first unless the query names an order.
    case near(FieldPath, GeoPoint, maximumDistance: Double?, minimumDistance: Double?)
    /// `$within: {$box: [southwest, northeast]}`.
    case withinBox(FieldPath, southwest: GeoPoint, northeast: GeoPoint)
    /// `$geoWithin: {$polygon: [...]}`: inside the polygon (at least three vertices).
    case withinPolygon(FieldPath, [GeoPoint])
    /// `$geoWithin: {$centerSphere: [center, radius]}`: within `radius` radians of `center`.
    case withinSphere(FieldPath, center: GeoPoint, radius: Double)
    /// `$text`: Parse's full-text search of a field's words (the field must be one of the class's search fields for a
    /// store to answer it; see ``TextSearch``).
    case text(FieldPath, TextSearch)

    /// The comparison operators.
    public enum Comparison: String, Sendable, Hashable, CaseIterable {
        case equal = "$eq"
        case notEqual = "$ne"
        case lessThan = "$lt"
        case lessThanOrEqual = "$lte"
        case greaterThan = "$gt"
        case greaterThanOrEqual = "$gte"
    }

    /// The radius of the Earth used to turn kilometres and miles into radians (as the LeanCloud SDKs do).
    public static let earthRadiusKilometers = 6371.0
    public static let earthRadiusMiles = 3958.8

    /// Combines conditions with AND, dropping `always` and flattening nested ANDs.
    public static func all(_ parts: [Condition]) -> Condition {
        var flat: [Condition] = []
        for part in parts {
            switch part {
            case .always: continue
            case .and(let inner): flat += inner
            default: flat.append(part)
            }
        }
        switch flat.count {
        case 0: return .always
        case 1: return flat[0]
        default: return .and(flat)
        }
    }
}

/// The inner query of `$inQuery`, `$notInQuery`, `$select` and `$dontSelect`.
///
/// As in LeanCloud, the inner query finds at most `limit` objects (100 by default, 1000 at most), after skipping
/// `skip` of them (oldest first when it skips: seed 003 pages through an inner query's matches with `skip`), and only
/// those take part in the outer condition.
public struct SubQuery: Sendable, Hashable {
    public var className: String
    public var condition: Condition
    public var limit: Int
    public var skip: Int

    public init(className: String, condition: Condition, limit: Int = 100, skip: Int = 0) {
        self.className = className
        self.condition = condition
        self.limit = limit
        self.skip = skip
    }
}
