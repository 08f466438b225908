import CirrusModel
import CirrusStorage

/// Answers the sub-queries and relations of a condition from the store's state, for a reader: inner queries find
/// only objects the readers may read, and a relation lists nothing of an owner they cannot read.
struct InMemoryResolver: ConditionResolver {
    let state: InMemoryState
    /// The ACL principals of the caller; `nil`: the master key.
    let readers: [String]?

    /// The objects an inner query finds: at most its limit after its skip, in insertion order.
    private func found(_ query: SubQuery) -> [StoredObject] {
        guard query.limit > 0, let inner = state.classes[query.className] else { return [] }
        let condition = SchemaConditions(state: state, className: query.className, schema: inner.schema).rewrite(query.condition)
        var found: [StoredObject] = []
        var skipped = 0
        for object in inner.ordered where object.grants(.read, to: readers) && condition.matches(object.subject, resolver: self) {
            guard skipped == query.skip else {
                skipped += 1
                continue
            }
            found.append(object)
            if found.count == query.limit { break }
        }
        return found
    }

    func objectIds(foundBy query: SubQuery) -> Set<String> {
        Set(found(query).map(\.objectId))
    }

    func values(of key: FieldPath, foundBy query: SubQuery) -> [JSON] {
        found(query).compactMap { object in
            guard !key.isNested else { return object.subject.value(at: key) }
            switch key.root {
            case "objectId": return .string(object.objectId)
            case "createdAt": return Value.date(object.createdAt).wire
            case "updatedAt": return Value.date(object.updatedAt).wire
            default: return object.subject.value(at: key)
            }
        }
    }

    func relationMembers(of owner: Pointer, key: String) -> Set<Pointer> {
        if readers != nil {
            guard let object = state.classes[owner.className]?.entries[owner.objectId]?.object, object.grants(.read, to: readers) else { return [] }
        }
        return Set(state.relationTargets(owner.className, owner.objectId, key))
    }
}
