/// Where a term of `q` looks (``SearchTerm/target(searchFields:otherFields:)``).
public enum SearchTermTarget: Sendable, Hashable {
    /// These search fields' text.
    case text([String])
    /// The value of a field outside the index, compared for equality (`score:9`, `objectId:…`), as Elasticsearch
    /// compares keyword and numeric fields.
    case exact(Condition)
}

extension SearchTerm {
    /// Where the term looks: a term naming no field looks in every field of `searchFields` (the class's search
    /// fields the caller may read); one naming such a field in that field; one naming `objectId` or another field of
    /// `otherFields` (the class's other fields the caller may read) compares that field's value with the term
    /// (a number, `true`/`false`, else text).
    /// - Throws: ``APIError/Reason/invalidQuery`` for a field the class does not have (or the caller may not read).
    public func target(searchFields: [String], otherFields: Set<String>) throws(APIError) -> SearchTermTarget {
        guard let field else { return .text(searchFields) }
        if field.segments.count == 1, searchFields.contains(field.root) { return .text([field.root]) }
        guard field.root == "objectId" || otherFields.contains(field.root) else {
            throw APIError(.invalidQuery, "'\(field)' is not a field this search can look in; search fields: \(searchFields.joined(separator: ", ")).")
        }
        let value: Value
        if let number = Double(text), text.allSatisfy({ $0.isNumber || $0 == "." || $0 == "-" }) {
            value = .double(number)
        } else if text == "true" || text == "false" {
            value = .bool(text == "true")
        } else {
            value = .string(text)
        }
        return .exact(.compare(field, .equal, value))
    }
}

extension SearchRange {
    /// The range as a query condition on its field (what a `where` with `$gt`/`$gte`/`$lt`/`$lte` compiles to).
    public var condition: Condition {
        func value(_ bound: SearchRangeValue) -> Value {
            switch bound {
            case .number(let number): .double(number)
            case .date(let date): .date(date)
            }
        }
        var parts: [Condition] = []
        if let lower { parts.append(.compare(field, lower.isInclusive ? .greaterThanOrEqual : .greaterThan, value(lower.value))) }
        if let upper { parts.append(.compare(field, upper.isInclusive ? .lessThanOrEqual : .lessThan, value(upper.value))) }
        return parts.isEmpty ? .exists(field, true) : .and(parts)
    }
}
