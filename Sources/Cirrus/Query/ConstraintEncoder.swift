import CirrusModel
import Foundation

/// The `where` operators of each condition of ``LCQuery/Constraint``.
enum ConstraintEncoder {
    /// The operators of a condition; empty for the constraints that are not conditions.
    static func operators(_ constraint: LCQuery.Constraint) -> [String: JSON] {
        switch constraint {
        case .existed: ["$exists": true]
        case .notExisted: ["$exists": false]
        case .equalTo(let value): ["$eq": encode(value)]
        case .notEqualTo(let value): ["$ne": encode(value)]
        case .lessThan(let value): ["$lt": encode(value)]
        case .lessThanOrEqualTo(let value): ["$lte": encode(value)]
        case .greaterThan(let value): ["$gt": encode(value)]
        case .greaterThanOrEqualTo(let value): ["$gte": encode(value)]
        case .containedIn(let values): ["$in": .array(values.map(encode))]
        case .notContainedIn(let values): ["$nin": .array(values.map(encode))]
        case .containedAllIn(let values): ["$all": .array(values.map(encode))]
        case .equalToSize(let size): ["$size": .int(Int64(size))]
        case .locatedNear(let point, let from, let to): near(point, from: from, to: to)
        case .locatedWithin(let southwest, let northeast):
            ["$within": ["$box": [ValueCoder.encode(southwest), ValueCoder.encode(northeast)]]]
        case .matchedQuery(let query): ["$inQuery": query.innerJSON]
        case .notMatchedQuery(let query): ["$notInQuery": query.innerJSON]
        case .matchedQueryAndKey(let query, let key): ["$select": ["query": query.innerJSON, "key": .string(key)]]
        case .notMatchedQueryAndKey(let query, let key): ["$dontSelect": ["query": query.innerJSON, "key": .string(key)]]
        case .matchedRegularExpression(let pattern, let option): regex(pattern, option)
        case .matchedSubstring(let text): regex(quote(text), nil)
        case .prefixedBy(let text): regex("^" + quote(text), nil)
        case .suffixedBy(let text): regex(quote(text) + "$", nil)
        case .selected, .included, .ascending, .descending, .relatedTo: [:]
        }
    }

    private static func encode(_ value: any LCValueConvertible) -> JSON {
        ValueCoder.encode(value.lcValue)
    }

    private static func near(_ point: LCGeoPoint, from: LCGeoPoint.Distance?, to: LCGeoPoint.Distance?) -> [String: JSON] {
        var operators: [String: JSON] = ["$nearSphere": ValueCoder.encode(point)]
        if let from { operators["$minDistanceIn" + from.unit.rawValue] = .double(from.value) }
        if let to { operators["$maxDistanceIn" + to.unit.rawValue] = .double(to.value) }
        return operators
    }

    private static func regex(_ pattern: String, _ option: String?) -> [String: JSON] {
        var operators: [String: JSON] = ["$regex": .string(pattern)]
        if let option, !option.isEmpty { operators["$options"] = .string(option) }
        return operators
    }

    /// `\Q…\E` around `text`, so that it matches literally (an `\E` inside is split out).
    static func quote(_ text: String) -> String {
        "\\Q" + text.replacingOccurrences(of: "\\E", with: "\\E\\\\E\\Q") + "\\E"
    }
}
