import CirrusModel
import Foundation

/// The model's ``Condition`` of each condition of ``LCQuery/Constraint``; the model writes it as `where` JSON.
enum ConstraintEncoder {
    /// The condition a constraint puts on `key` and the operator it uses (a later constraint with the same operator on
    /// the key replaces it); `nil` for the constraints that are not conditions.
    static func condition(_ constraint: LCQuery.Constraint, on key: String) -> (operator: String, condition: Condition)? {
        let path = fieldPath(key)
        switch constraint {
        case .existed: return ("$exists", .exists(path, true))
        case .notExisted: return ("$exists", .exists(path, false))
        case .equalTo(let value): return ("", .compare(path, .equal, encode(value)))
        case .notEqualTo(let value): return compare(path, .notEqual, value)
        case .lessThan(let value): return compare(path, .lessThan, value)
        case .lessThanOrEqualTo(let value): return compare(path, .lessThanOrEqual, value)
        case .greaterThan(let value): return compare(path, .greaterThan, value)
        case .greaterThanOrEqualTo(let value): return compare(path, .greaterThanOrEqual, value)
        case .containedIn(let values): return ("$in", .inList(path, values.map(encode), negated: false))
        case .notContainedIn(let values): return ("$nin", .inList(path, values.map(encode), negated: true))
        case .containedAllIn(let values): return ("$all", .containsAll(path, values.map(encode)))
        case .equalToSize(let size): return ("$size", .size(path, Int64(size)))
        case .locatedNear(let point, let from, let to):
            return ("$nearSphere", .near(path, point.model, maximumDistance: to.map(radians), minimumDistance: from.map(radians)))
        case .locatedWithin(let southwest, let northeast):
            return ("$within", .withinBox(path, southwest: southwest.model, northeast: northeast.model))
        case .matchedQuery(let query): return ("$inQuery", .inQuery(path, query.subQuery, negated: false))
        case .notMatchedQuery(let query): return ("$notInQuery", .inQuery(path, query.subQuery, negated: true))
        case .matchedQueryAndKey(let query, let key): return ("$select", .select(path, query.subQuery, key: fieldPath(key), negated: false))
        case .notMatchedQueryAndKey(let query, let key):
            return ("$dontSelect", .select(path, query.subQuery, key: fieldPath(key), negated: true))
        case .matchedRegularExpression(let pattern, let option): return ("$regex", .regex(path, pattern: pattern, options: option ?? ""))
        case .matchedSubstring(let text): return ("$regex", .regex(path, pattern: quote(text), options: ""))
        case .prefixedBy(let text): return ("$regex", .regex(path, pattern: "^" + quote(text), options: ""))
        case .suffixedBy(let text): return ("$regex", .regex(path, pattern: quote(text) + "$", options: ""))
        case .selected, .included, .ascending, .descending, .relatedTo: return nil
        }
    }

    private static func compare(
        _ path: FieldPath, _ comparison: Condition.Comparison, _ value: any LCValueConvertible
    ) -> (operator: String, condition: Condition) {
        (comparison.rawValue, .compare(path, comparison, encode(value)))
    }

    private static func encode(_ value: any LCValueConvertible) -> Value {
        ValueCoder.value(value.lcValue)
    }

    /// The path of a key as the app wrote it (`a.b` into nested objects); a key that is no valid path is sent as
    /// written, for the server to refuse.
    static func fieldPath(_ key: String) -> FieldPath {
        (try? FieldPath(parsing: key)) ?? FieldPath(field: key)
    }

    /// A distance in radians of arc, as the model holds it.
    private static func radians(_ distance: LCGeoPoint.Distance) -> Double {
        switch distance.unit {
        case .radian: distance.value
        case .kilometer: distance.value / Condition.earthRadiusKilometers
        case .mile: distance.value / Condition.earthRadiusMiles
        }
    }

    /// `\Q…\E` around `text`, so that it matches literally (an `\E` inside is split out).
    static func quote(_ text: String) -> String {
        "\\Q" + text.replacingOccurrences(of: "\\E", with: "\\E\\\\E\\Q") + "\\E"
    }
}
