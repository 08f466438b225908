import CirrusModel
import CirrusStorage

/// What a condition means on a class whose schema the query knows, beyond what the model's evaluator reads from the
/// objects alone (as the SQL stores' `ConditionCompiler` compiles it): equality and `$in` on a Relation field test its
/// members (the SDKs' reverse relation query), and bare objectIds in `$in` on a Pointer field stand for pointers to
/// its target class. It rewrites such parts into conditions the evaluator answers.
struct SchemaConditions {
    let state: InMemoryState
    let className: String
    let schema: ClassSchema?

    private static let objectId = FieldPath(field: "objectId")

    func rewrite(_ condition: Condition) -> Condition {
        guard schema != nil else { return condition }
        switch condition {
        case .and(let parts): return .and(parts.map(rewrite))
        case .or(let parts): return .or(parts.map(rewrite))
        case .nor(let parts): return .nor(parts.map(rewrite))
        case .compare(let path, let op, let value) where op == .equal || op == .notEqual:
            guard let owners = owners(path, [value]) else { return condition }
            return .inList(Self.objectId, owners, negated: op == .notEqual)
        case .inList(let path, let values, let negated) where !values.isEmpty:
            if let owners = owners(path, values) { return .inList(Self.objectId, owners, negated: negated) }
            guard case .pointer(let targetClass)? = schema?.type(at: path) else { return condition }
            let pointers = values.map { value -> Value in
                if case .string(let id) = value { return .pointer(Pointer(className: targetClass, objectId: id)) }
                return value
            }
            return .inList(path, pointers, negated: negated)
        case .containsAll(let path, let values) where !values.isEmpty && owners(path, values) != nil:
            return .and(values.map { rewrite(.compare(path, .equal, $0)) })
        default:
            return condition
        }
    }

    /// For a top-level Relation field: the ids of the objects whose relation holds one of the pointers to its target
    /// class among `values`; `nil` for any other field.
    private func owners(_ path: FieldPath, _ values: [Value]) -> [Value]? {
        guard !path.isNested, case .relation(let targetClass)? = schema?.type(of: path.root) else { return nil }
        let ids = Set(values.compactMap { value -> String? in
            guard case .pointer(let pointer) = value, pointer.className == targetClass else { return nil }
            return pointer.objectId
        })
        let owners = state.relations.filter { $0.ownerClass == className && $0.field == path.root && ids.contains($0.target.objectId) }
        return Set(owners.map(\.ownerId)).sorted().map(Value.string)
    }
}
