public import CirrusModel

/// A find or count for a store: the class, its known schema, the condition, order and page.
public struct StorageQuery: Sendable {
    public var className: String
    public var schema: ClassSchema?
    public var condition: Condition
    public var order: [SortKey]
    public var limit: Int
    public var skip: Int

    public init(className: String, schema: ClassSchema?, condition: Condition, order: [SortKey] = [], limit: Int = 100, skip: Int = 0) {
        self.className = className
        self.schema = schema
        self.condition = condition
        self.order = order
        self.limit = limit
        self.skip = skip
    }
}
