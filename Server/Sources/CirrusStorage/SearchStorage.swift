package import CirrusModel

/// One in-app search for a store (docs/SEARCH.md): `q` parsed, over one class's search index, with the caller's read
/// rights, a page, and whether to count every hit.
package struct StorageSearch: Sendable {
    package var className: String
    package var schema: ClassSchema?
    /// The class's search fields, in its index's column order.
    package var fields: [String]
    /// The search fields the caller may read: terms without a field look in these, and a term may name only these.
    package var visibleFields: [String]
    /// The class's other fields the caller may read: a term naming one compares its value.
    package var otherFields: Set<String>
    package var query: SearchQuery
    /// Empty: by relevance (or by ``near``).
    package var order: [SortKey]
    /// A distance sort (`_geo_distance`): objects nearest `point` first (farthest with `descending`), without a
    /// GeoPoint last.
    package var near: (path: FieldPath, point: GeoPoint, descending: Bool)?
    package var limit: Int
    package var skip: Int
    /// As ``StorageQuery/readers``: `nil` for the master key.
    package var readers: [String]?

    package init(
        className: String, schema: ClassSchema?, fields: [String], visibleFields: [String], otherFields: Set<String> = [], query: SearchQuery,
        order: [SortKey] = [],
        limit: Int = 100, skip: Int = 0, readers: [String]? = nil
    ) {
        self.className = className
        self.schema = schema
        self.fields = fields
        self.visibleFields = visibleFields
        self.otherFields = otherFields
        self.query = query
        self.order = order
        self.limit = limit
        self.skip = skip
        self.readers = readers
    }
}

/// Classes' search indexes: kept by every write in its transaction (``WriteCommand/Insert/searchFields``, the
/// schema of updates and deletes), built from the objects by ``rebuildSearchIndex(className:fields:)``.
package protocol SearchStorage: Sendable {
    /// The page of objects matching the search, best first unless ordered, and the number of all matches.
    func search(_ search: StorageSearch) async throws -> (hits: Int, objects: [StoredObject])

    /// Drops the class's index, and with `fields` builds it again from every object, a page at a time; returns the
    /// objects indexed.
    @discardableResult
    func rebuildSearchIndex(className: String, fields: [String]?) async throws -> Int
}
