package import CirrusModel

/// A find or count for a store: the class, its known schema, the condition, order and page, and who reads.
package struct StorageQuery: Sendable {
    package var className: String
    package var schema: ClassSchema?
    package var condition: Condition
    package var order: [SortKey]
    package var limit: Int
    package var skip: Int
    /// The ACL principals of the caller (`*`, later the user id and `role:<name>`): only objects without an ACL
    /// or whose ACL grants read to one of them are found, counted or aggregated, sub-queries included.
    /// `nil` (the master key) reads everything.
    package var readers: [String]?
    /// The field each found object carries its `$text` relevance in (`keys=$score`: Parse's `score`), higher for
    /// better matches; `nil` for none.
    package var textScoreField: String?

    package init(
        className: String, schema: ClassSchema?, condition: Condition, order: [SortKey] = [], limit: Int = 100, skip: Int = 0,
        readers: [String]? = nil, textScoreField: String? = nil
    ) {
        self.className = className
        self.schema = schema
        self.condition = condition
        self.order = order
        self.limit = limit
        self.skip = skip
        self.readers = readers
        self.textScoreField = textScoreField
    }

    /// Whether the query reads the relevance of its `$text` conditions: for `$score` in its order or its keys.
    package var ranksText: Bool {
        textScoreField != nil || order.contains { $0.path == .textScore }
    }
}
