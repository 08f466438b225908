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

    /// A query reading `$score`: the matching objects ranked by how often the `$text` terms occur in their fields (the
    /// in-memory store's relevance), best first unless ordered otherwise, each score in ``StorageQuery/textScoreField``.
    /// - Throws: ``APIError/Reason/invalidQuery`` when the query has no `$text` condition to rank by.
    func findRanked(_ query: StorageQuery) throws -> [StoredObject] {
        let terms = query.condition.rankedTextTerms
        guard !terms.isEmpty else { throw APIError(.invalidQuery, "$score needs a $text condition on a field of \(query.className).") }
        let key = FieldPath.textScore.root
        let scored = matching(query).map { object in
            var copy = object
            copy.fields[key] = .double(Double(terms.reduce(0) { total, term in
                total + SearchMatcher.occurrences(of: term.tokens, in: SearchTokenizer.tokens(of: term.field.flatMap { object.subject.value(at: $0) })).count
            }))
            return copy
        }
        let order = query.order.isEmpty ? [SortKey(path: .textScore), SortKey(path: FieldPath(field: "createdAt"), descending: true)] : query.order
        // Best first: the higher score, so `$score` sorts descending and `-$score` ascending.
        let keys = order.map { $0.path == .textScore ? SortKey(path: $0.path, descending: !$0.descending) : $0 }
        let ordered = ObjectOrdering(schema: query.schema).sorted(scored, by: keys, condition: query.condition)
        return ordered.dropFirst(max(query.skip, 0)).prefix(max(query.limit, 0)).map { object in
            var result = object
            let score = result.fields.removeValue(forKey: key)
            if let field = query.textScoreField { result.fields[field] = score }
            return result
        }
    }

    /// Refuses a `$text` condition on a field that is not a search field, as the SQL stores do.
    func checkTextSearchable(_ condition: Condition, in className: String, schema: ClassSchema?) throws(APIError) {
        try condition.checkTextSearchable(in: className) { $0 == className ? schema : classes[$0]?.schema }
    }
}

