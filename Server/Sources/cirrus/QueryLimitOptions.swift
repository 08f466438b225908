import ArgumentParser
import CirrusModel
import CirrusServer

/// The query limits of `cirrus serve` (``QueryLimits``): the size and nesting of a `where`, its lists, `order`, `keys`
/// and `include`, the objects an include may expand, and regular expressions.
struct QueryLimitOptions: ParsableArguments {
    @Option(help: "Conditions in one where, nested ones included (CIRRUS_MAX_QUERY_CONDITIONS, default 2000).")
    var maxQueryConditions: Int?

    @Option(help: "Values in one $in, $nin or $all (CIRRUS_MAX_QUERY_LIST_VALUES, default 10000).")
    var maxQueryListValues: Int?

    @Option(help: "Nesting of $and, $or, $nor and sub-queries in a where (CIRRUS_MAX_QUERY_DEPTH, default 10).")
    var maxQueryDepth: Int?

    @Option(help: "Nesting of $inQuery, $notInQuery, $select and $dontSelect (CIRRUS_MAX_SUBQUERY_DEPTH, default 3).")
    var maxSubqueryDepth: Int?

    @Option(help: "Keys of order (CIRRUS_MAX_ORDER_KEYS, default 16).")
    var maxOrderKeys: Int?

    @Option(help: "Keys of keys and excludeKeys, include paths, group keys (CIRRUS_MAX_QUERY_KEYS, default 1000).")
    var maxQueryKeys: Int?

    @Option(help: "Pointers one include path follows, a.b.c being three (CIRRUS_MAX_INCLUDE_DEPTH, default 5).")
    var maxIncludeDepth: Int?

    @Option(help: "Objects the includes of one request may expand, each counted where it appears (CIRRUS_MAX_INCLUDED_OBJECTS, default 20000).")
    var maxIncludedObjects: Int?

    @Option(help: "Characters of a regular expression (CIRRUS_MAX_REGEX_LENGTH, default 1000).")
    var maxRegexLength: Int?

    @Option(help: "Milliseconds one regular expression may run on one value before the query is refused (CIRRUS_REGEX_BUDGET_MS, default 50).")
    var regexBudgetMs: Int?

    /// Applies the given flags and variables.
    /// - Throws: `ValidationError` for a value that is not a positive integer.
    func apply(_ values: EnvironmentValues, to configuration: inout ServerConfiguration) throws {
        var limits = configuration.queryLimits
        let settings: [(Int?, String, WritableKeyPath<QueryLimits, Int>)] = [
            (maxQueryConditions, "CIRRUS_MAX_QUERY_CONDITIONS", \.maximumConditions),
            (maxQueryListValues, "CIRRUS_MAX_QUERY_LIST_VALUES", \.maximumListValues),
            (maxQueryDepth, "CIRRUS_MAX_QUERY_DEPTH", \.maximumConditionDepth),
            (maxSubqueryDepth, "CIRRUS_MAX_SUBQUERY_DEPTH", \.maximumSubqueryDepth),
            (maxOrderKeys, "CIRRUS_MAX_ORDER_KEYS", \.maximumOrderKeys),
            (maxQueryKeys, "CIRRUS_MAX_QUERY_KEYS", \.maximumKeys),
            (maxIncludeDepth, "CIRRUS_MAX_INCLUDE_DEPTH", \.maximumIncludeDepth),
            (maxIncludedObjects, "CIRRUS_MAX_INCLUDED_OBJECTS", \.maximumIncludedObjects),
            (maxRegexLength, "CIRRUS_MAX_REGEX_LENGTH", \.maximumRegexLength),
        ]
        for (flag, name, key) in settings {
            if let value = try values.positiveInteger(flag, name) { limits[keyPath: key] = value }
        }
        if let milliseconds = try values.positiveInteger(regexBudgetMs, "CIRRUS_REGEX_BUDGET_MS") { limits.regexBudgetMilliseconds = milliseconds }
        configuration.queryLimits = limits
    }
}
