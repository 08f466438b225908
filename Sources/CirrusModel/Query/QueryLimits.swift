/// Bounds on what one query may ask of the server, so that no request occupies it for long: the size of a `where`,
/// the nesting of its parts and sub-queries, the length of its lists, `order`, `keys` and `include`, the objects an
/// include may expand, and the length and running time of regular expressions.
///
/// Every member is a server setting (`cirrus serve --max-…`); the defaults are far above what the LeanCloud, Parse
/// and Bmob SDKs send. A query beyond a limit is refused with ``APIError/Reason/queryTooComplex`` before any SQL runs.
public struct QueryLimits: Sendable, Hashable {
    /// Conditions in one `where`: every operator of every field, sub-queries' conditions included.
    public var maximumConditions: Int
    /// Values in one `$in`, `$nin` or `$all`.
    public var maximumListValues: Int
    /// How deeply `$and`, `$or`, `$nor` and sub-queries may nest in one another. With ``maximumSubqueryDepth``, it
    /// keeps statements within what SQLite's parser accepts (about a hundred levels of grammar).
    public var maximumConditionDepth: Int
    /// How deeply `$inQuery`, `$notInQuery`, `$select` and `$dontSelect` may nest in one another.
    public var maximumSubqueryDepth: Int
    /// Keys of `order` (a key repeated counts once).
    public var maximumOrderKeys: Int
    /// Keys of `keys` and `excludeKeys`, paths of `include`, group keys of statistics.
    public var maximumKeys: Int
    /// Pointers an `include` path may follow in a row (`a.b.c` follows three).
    public var maximumIncludeDepth: Int
    /// Objects the includes of one request may put into its reply, counting each place an object appears.
    public var maximumIncludedObjects: Int
    /// Characters of a `$regex` pattern.
    public var maximumRegexLength: Int
    /// Milliseconds that matching one regular expression against one value may take; beyond them the query is
    /// refused.
    public var regexBudgetMilliseconds: Int

    public init(
        maximumConditions: Int = 2000, maximumListValues: Int = 10_000, maximumConditionDepth: Int = 10, maximumSubqueryDepth: Int = 3,
        maximumOrderKeys: Int = 16, maximumKeys: Int = 1000, maximumIncludeDepth: Int = 5, maximumIncludedObjects: Int = 20_000,
        maximumRegexLength: Int = 1000, regexBudgetMilliseconds: Int = 50
    ) {
        self.maximumConditions = maximumConditions
        self.maximumListValues = maximumListValues
        self.maximumConditionDepth = maximumConditionDepth
        self.maximumSubqueryDepth = maximumSubqueryDepth
        self.maximumOrderKeys = maximumOrderKeys
        self.maximumKeys = maximumKeys
        self.maximumIncludeDepth = maximumIncludeDepth
        self.maximumIncludedObjects = maximumIncludedObjects
        self.maximumRegexLength = maximumRegexLength
        self.regexBudgetMilliseconds = regexBudgetMilliseconds
    }

    /// The error of a query beyond a limit.
    public static func exceeded(_ what: String, _ count: Int, limit: Int) -> APIError {
        APIError(.queryTooComplex, "Query too complex: \(what) (\(count)) exceeds the limit of \(limit).")
    }
}

extension QueryLimits {
    /// Checks a `where` condition: its size, nesting, lists and patterns.
    /// - Throws: ``APIError`` ``APIError/Reason/queryTooComplex`` for the first limit exceeded.
    public func check(_ condition: Condition) throws(APIError) {
        var walk = ConditionWalk(limits: self)
        try walk.visit(condition, depth: 0, subqueryDepth: 0)
    }

    /// Checks a find: its condition, `order`, `keys` and `include`.
    public func check(_ query: Query) throws(APIError) {
        try check(query.condition)
        try checkOrder(query.order)
        try checkKeys(query.keys.map { $0.included.count + $0.excluded.count } ?? 0, in: "keys")
        try checkInclude(query.include)
    }

    /// Checks a statistics query: its condition, `having`, group keys and `order`.
    public func check(_ aggregation: Aggregation) throws(APIError) {
        try check(aggregation.condition)
        if let having = aggregation.having { try check(having) }
        try checkKeys(aggregation.groupBy.count + aggregation.functions.count, in: "group keys and statistics")
        try checkOrder(aggregation.order)
    }

    /// Checks the keys of an `order` whose repeated keys were dropped (``SortKey/parseList(_:)`` drops them).
    public func checkOrder(_ order: [SortKey]) throws(APIError) {
        guard order.count <= maximumOrderKeys else { throw Self.exceeded("the number of order keys", order.count, limit: maximumOrderKeys) }
    }

    /// Checks the number of keys a list parameter names.
    public func checkKeys(_ count: Int, in parameter: String) throws(APIError) {
        guard count <= maximumKeys else { throw Self.exceeded("the number of \(parameter)", count, limit: maximumKeys) }
    }

    /// Checks `include`: the number of paths and the pointers each follows.
    public func checkInclude(_ paths: [FieldPath]) throws(APIError) {
        try checkKeys(paths.count, in: "include paths")
        for path in paths where path.segments.count > maximumIncludeDepth {
            throw Self.exceeded("the depth of include '\(path)'", path.segments.count, limit: maximumIncludeDepth)
        }
    }

    /// Checks the length of a regular expression before it is compiled.
    public func checkRegex(_ pattern: String) throws(APIError) {
        let length = pattern.unicodeScalars.count
        guard length <= maximumRegexLength else { throw Self.exceeded("the length of a regular expression", length, limit: maximumRegexLength) }
    }
}

/// Counts the conditions of a `where` and follows its nesting, stopping at the first limit exceeded.
private struct ConditionWalk {
    let limits: QueryLimits
    var conditions = 0

    mutating func visit(_ condition: Condition, depth: Int, subqueryDepth: Int) throws(APIError) {
        guard depth <= limits.maximumConditionDepth else {
            throw QueryLimits.exceeded("the nesting of the where", depth, limit: limits.maximumConditionDepth)
        }
        switch condition {
        case .always:
            return
        case .and(let parts), .or(let parts), .nor(let parts):
            for part in parts { try visit(part, depth: depth + 1, subqueryDepth: subqueryDepth) }
            return
        case .inList(_, let values, _), .containsAll(_, let values):
            guard values.count <= limits.maximumListValues else {
                throw QueryLimits.exceeded("the number of values of $in, $nin or $all", values.count, limit: limits.maximumListValues)
            }
        case .regex(_, let pattern, _):
            try limits.checkRegex(pattern)
        case .inQuery(_, let query, _), .select(_, let query, _, _):
            guard subqueryDepth < limits.maximumSubqueryDepth else {
                throw QueryLimits.exceeded("the nesting of sub-queries", subqueryDepth + 1, limit: limits.maximumSubqueryDepth)
            }
            try count()
            try visit(query.condition, depth: depth + 1, subqueryDepth: subqueryDepth + 1)
            return
        case .compare, .exists, .size, .relatedTo, .near, .withinBox, .withinPolygon, .withinSphere, .text:
            break
        }
        try count()
    }

    private mutating func count() throws(APIError) {
        conditions += 1
        guard conditions <= limits.maximumConditions else {
            throw QueryLimits.exceeded("the number of conditions in the where", conditions, limit: limits.maximumConditions)
        }
    }
}
