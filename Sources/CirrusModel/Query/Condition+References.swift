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

    /// The objects whose Relation fields this condition lists members of (`$relatedTo`), in sub-queries too.
    public var relationOwners: Set<Pointer> {
        switch self {
        case .and(let parts), .or(let parts), .nor(let parts):
            return parts.reduce(into: []) { $0.formUnion($1.relationOwners) }
        case .inQuery(_, let query, _), .select(_, let query, _, _):
            return query.condition.relationOwners
        case .relatedTo(let owner, _):
            return [owner]
        default:
            return []
        }
    }

    /// Every class whose table the compiled condition reads: the classes of sub-queries and of relation owners
    /// (whose read permission a `$relatedTo` checks).
    public var tableClassNames: Set<String> {
        referencedClassNames.union(relationOwners.map(\.className))
    }
}
