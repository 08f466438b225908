import CirrusModel
import CirrusStorage

/// Finds and counts: the objects the query's readers may read that match its condition.
extension InMemoryState {
    /// The matching objects in insertion order.
    func matching(_ query: StorageQuery) -> [StoredObject] {
        let condition = SchemaConditions(state: self, className: query.className, schema: query.schema).rewrite(query.condition)
        let resolver = InMemoryResolver(state: self, readers: query.readers)
        return objects(of: query.className).filter { object in
            object.grants(.read, to: query.readers) && condition.matches(object.subject, resolver: resolver)
        }
    }

    /// The matching objects, ordered (nearest first for a `$nearSphere` without an order) and paged.
    func find(_ query: StorageQuery) -> [StoredObject] {
        let ordered = ObjectOrdering(schema: query.schema).sorted(matching(query), by: query.order, condition: query.condition)
        return Array(ordered.dropFirst(max(query.skip, 0)).prefix(max(query.limit, 0)))
    }
}
