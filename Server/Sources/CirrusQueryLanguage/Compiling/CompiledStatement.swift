package import CirrusModel

/// A statement turned into the model the REST API uses: a find (with count), a statistics query, or writes.
package enum CompiledStatement: Sendable, Hashable {
    case find(CloudFind)
    case aggregate(Aggregation)
    case insert(CloudInsert)
    case update(CloudUpdate)
    case delete(CloudDelete)

    /// The class the statement works on.
    package var className: String {
        switch self {
        case .find(let find): find.query.className
        case .aggregate(let aggregation): aggregation.className
        case .insert(let insert): insert.className
        case .update(let update): update.className
        case .delete(let delete): delete.className
        }
    }
}

/// `select`: the query, and whether the reply carries the number of matching objects.
package struct CloudFind: Sendable, Hashable {
    package var query: Query
    /// `count(*)` or `count(objectId)` was selected.
    package var counts: Bool

    package init(query: Query, counts: Bool = false) {
        self.query = query
        self.counts = counts
    }
}

/// `insert`: one REST create body per row.
package struct CloudInsert: Sendable, Hashable {
    package var className: String
    package var rows: [JSON]

    package init(className: String, rows: [JSON]) {
        self.className = className
        self.rows = rows
    }
}

/// `update`: a REST update body for one object, applied only if `condition` holds (else 305).
package struct CloudUpdate: Sendable, Hashable {
    package var className: String
    package var objectId: String
    package var body: JSON
    package var condition: Condition?

    package init(className: String, objectId: String, body: JSON, condition: Condition? = nil) {
        self.className = className
        self.objectId = objectId
        self.body = body
        self.condition = condition
    }
}

/// `delete`: one object, deleted only if `condition` holds (else 305).
package struct CloudDelete: Sendable, Hashable {
    package var className: String
    package var objectId: String
    package var condition: Condition?

    package init(className: String, objectId: String, condition: Condition? = nil) {
        self.className = className
        self.objectId = objectId
        self.condition = condition
    }
}

extension QueryLimits {
    /// Checks what a statement asks for against the limits of REST queries: a select's `where`, `order`, keys and
    /// includes, a statistics query's, and the `where` of an update or delete.
    /// - Throws: ``APIError`` ``APIError/Reason/queryTooComplex``.
    package func check(_ statement: CompiledStatement) throws(APIError) {
        switch statement {
        case .find(let find): try check(find.query)
        case .aggregate(let aggregation): try check(aggregation)
        case .update(let update): try update.condition.map { condition throws(APIError) in try check(condition) }
        case .delete(let delete): try delete.condition.map { condition throws(APIError) in try check(condition) }
        case .insert: break
        }
    }
}
