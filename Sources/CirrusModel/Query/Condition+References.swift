extension Condition {
    /// The classes the sub-queries of this condition read, nested sub-queries included.
    public var referencedClassNames: Set<String> {
        switch self {
        case .and(let parts), .or(let parts), .nor(let parts):
            return parts.reduce(into: []) { $0.formUnion($1.referencedClassNames) }
        case .inQuery(_, let query, _), .select(_, let query, _, _):
            return query.condition.referencedClassNames.union([query.className])
        default:
            return []
        }
    }
}
