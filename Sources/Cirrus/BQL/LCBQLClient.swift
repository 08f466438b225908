import CirrusModel
public import Foundation

/// Runs BQL, Bmob's SQL-like query language, on Bmob's path (`GET /1/cloudQuery?bql=…&values=[…]`), with `?`
/// placeholders: Bmob's `queryInBackgroundWithBQL` and `statisticsInBackgroundWithBQL` in the style of
/// ``LCCQLClient``.
///
/// ```swift
/// let found = try await LCBQLClient.execute("select * from GameScore where playerName = ? and score = ?", values: ["name2", 9])
/// found.objects                    // Bmob's result.resultsAry
/// try await LCBQLClient.execute("select count(*) from GameScore").count
/// let rows = try await LCBQLClient.statistics("select sum(score) from GameScore group by playerName")
/// rows.first?["_sumScore"]
/// ```
///
/// Objects and values come back as the LeanCloud path gives them: `LCObject`s of the statement's class (registered
/// subclasses, `LCUser` for `_User`), dates as `LCDate`s at the instant Bmob's Beijing-time text names (to the second:
/// Bmob writes no milliseconds).
public enum LCBQLClient {
    /// Runs the select `bql` with `values` for its `?` placeholders: its objects, and `count` for a `count(*)`.
    /// - Parameters:
    ///   - values: one value per `?`, in their REST encoding (a date as `date(?)` takes Bmob's text,
    ///     `"2015-05-14 14:56:30"`; a comparison with `createdAt` also takes a `Date`).
    ///   - cachePolicy: how the query result cache is used, as for ``LCQuery``'s finds (statistics are never cached).
    ///   - maxCacheAge: the age in seconds beyond which a cached result is not used; `nil` for no limit.
    /// - Throws: `LCError` 601 for a syntax error, 120 when ``LCQuery/CachePolicy/onlyCache`` finds nothing cached.
    public static func execute(
        application: LCApplication = .default, _ bql: String, values: [any LCValueConvertible] = [],
        cachePolicy: LCQuery.CachePolicy = .ignoreCache, maxCacheAge: TimeInterval? = nil
    ) async throws -> LCCQLValue {
        try await execute(Statement(application, bql, values.map(\.lcValue)), cachePolicy, maxCacheAge)
    }

    /// Runs `bql`; `completion` gets `.success(value:)` or `.failure(error:)` on `completionQueue` (twice for
    /// ``LCQuery/CachePolicy/cacheThenNetwork`` when a cached result exists: the cached one, then the network's).
    @discardableResult
    public static func execute(
        application: LCApplication = .default, _ bql: String, values: [any LCValueConvertible] = [],
        cachePolicy: LCQuery.CachePolicy = .ignoreCache, maxCacheAge: TimeInterval? = nil,
        completionQueue: DispatchQueue = .main, completion: @escaping (LCCQLResult) -> Void
    ) -> LCRequest {
        let statement = Statement(application, bql, values.map(\.lcValue))
        return Call.start(policy: cachePolicy, on: completionQueue, completion: completion) { policy in
            try await execute(statement, policy, maxCacheAge)
        }
    }

    /// Runs `bql`, blocking the calling thread.
    public static func execute(
        application: LCApplication = .default, _ bql: String, values: [any LCValueConvertible] = [],
        cachePolicy: LCQuery.CachePolicy = .ignoreCache, maxCacheAge: TimeInterval? = nil
    ) -> LCCQLResult {
        let statement = Statement(application, bql, values.map(\.lcValue))
        return Call.wait { try await execute(statement, cachePolicy, maxCacheAge) }
    }

    /// The rows of the statistics statement `bql` (`sum`, `average`, `max`, `min`, `group by`, `groupcount`,
    /// `having`): `LCDictionary`s with the keys `_sumScore`, `_avgScore`, `_maxScore`, `_minScore`, the grouped
    /// fields and `_count`, as ``LCQuery/calculate()`` gives them.
    /// - Throws: `LCError` 601 for a syntax error.
    public static func statistics(
        application: LCApplication = .default, _ bql: String, values: [any LCValueConvertible] = []
    ) async throws -> [LCDictionary] {
        try await statistics(Statement(application, bql, values.map(\.lcValue)))
    }

    /// Runs the statistics statement `bql`; `completion` gets `.success(objects:)` (the rows) or `.failure(error:)`.
    @discardableResult
    public static func statistics(
        application: LCApplication = .default, _ bql: String, values: [any LCValueConvertible] = [],
        completionQueue: DispatchQueue = .main, completion: @escaping (LCQueryResult<LCDictionary>) -> Void
    ) -> LCRequest {
        let statement = Statement(application, bql, values.map(\.lcValue))
        return Call.start(on: completionQueue, completion: completion) { try await statistics(statement) }
    }

    /// Runs the statistics statement `bql`, blocking the calling thread.
    public static func statistics(
        application: LCApplication = .default, _ bql: String, values: [any LCValueConvertible] = []
    ) -> LCQueryResult<LCDictionary> {
        let statement = Statement(application, bql, values.map(\.lcValue))
        return Call.wait { try await statistics(statement) }
    }

    /// Whether a cached result of `bql` with `values` (not older than `maxCacheAge`) exists for the current session.
    public static func hasCachedResult(
        application: LCApplication = .default, _ bql: String, values: [any LCValueConvertible] = [], maxCacheAge: TimeInterval? = nil
    ) -> Bool {
        let statement = Statement(application, bql, values.map(\.lcValue))
        return QueryCache(application: application).load(statement.cacheKey, maxAge: maxCacheAge) != nil
    }

    /// Removes the cached result of `bql` with `values` for the current session.
    public static func clearCachedResult(application: LCApplication = .default, _ bql: String, values: [any LCValueConvertible] = []) {
        let statement = Statement(application, bql, values.map(\.lcValue))
        QueryCache(application: application).remove(statement.cacheKey)
    }

    /// A statement with its placeholder values, ready to send.
    private struct Statement: Sendable {
        static let path = "/cloudQuery"

        let application: LCApplication
        let bql: String
        let values: [any LCValue]

        init(_ application: LCApplication, _ bql: String, _ values: [any LCValue]) {
            self.application = application
            self.bql = bql
            self.values = values
        }

        /// `bql` and, when there are placeholder values, `values` (a JSON array of REST values).
        var parameters: [(String, String)] {
            var parameters = [("bql", bql)]
            if !values.isEmpty { parameters.append(("values", JSONWriter.string(.array(values.map(ValueCoder.encode))))) }
            return parameters
        }

        /// The cache key: Bmob's path, the parameters and the current session.
        var cacheKey: String {
            QueryCache.key(path: Bmob.prefix + Self.path, parameters: parameters, session: application.currentUser?.sessionToken?.value)
        }

        func send() async throws -> JSON {
            try await Bmob.get(application: application, Self.path, query: parameters)
        }
    }

    private static func execute(_ statement: Statement, _ policy: LCQuery.CachePolicy, _ maxCacheAge: TimeInterval?) async throws -> LCCQLValue {
        let cache = QueryCache(application: statement.application)
        let reply = try await cache.reply(key: statement.cacheKey, policy: policy, maxAge: maxCacheAge) { try await statement.send() }
        guard var members = reply.objectValue, let results = members["results"]?.arrayValue else {
            throw LCError.malformed("The BQL reply has no results.")
        }
        members["results"] = .array(results.map(Bmob.object))
        let decoder = ObjectDecoder(application: statement.application)
        return LCCQLValue(.object(members), decoder: decoder, className: Bmob.className(of: statement.bql))
    }

    private static func statistics(_ statement: Statement) async throws -> [LCDictionary] {
        guard let rows = try await statement.send()["results"]?.arrayValue else {
            throw LCError.malformed("The BQL statistics reply has no results.")
        }
        let decoder = ObjectDecoder(application: statement.application)
        return rows.map { row in LCDictionary(values: (Bmob.value(row).objectValue ?? [:]).mapValues(decoder.value)) }
    }
}
