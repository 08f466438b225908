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

    /// The comparison operators.
    public enum Comparison: String, Sendable, Hashable, CaseIterable {
        case equal = "$eq"
        case notEqual = "$ne"
        case lessThan = "$lt"
        case lessThanOrEqual = "$lte"
        case greaterThan = "$gt"
        case greaterThanOrEqual = "$gte"
    }

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
