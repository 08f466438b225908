import CirrusModel
public import Foundation

/// Statistics of a query, as Bmob offers them: sums, averages, maxima and minima of number fields, grouped by
/// fields, with the count of each group and a condition on the results.
///
/// ```swift
/// let query = LCQuery(className: "GameScore")
/// query.groupBy(keys: ["playerName"])
/// query.sum(keys: ["score"])
/// query.having("_sumScore", .greaterThan(50))
/// for row in try await query.calculate() { print(row["playerName"], row["_sumScore"]) }
/// ```
/// Result keys are `_sum`, `_avg`, `_max` or `_min` followed by the field name with its first letter capitalised
/// (`_sumScore`), the grouped fields, and `_count` with ``groupCount``.
extension LCQuery {
    /// What ``calculate()`` asks for.
    struct Statistics: Sendable {
        var functions: [(name: String, keys: [String])] = []
        var groupBy: [String] = []
        var groupCount = false
        var having: [String: JSON] = [:]
    }

    /// Sums `keys` (`_sum<Key>`).
    public func sum(keys: [String]) { addFunction("sum", keys) }

    /// Averages `keys` (`_avg<Key>`).
    public func average(keys: [String]) { addFunction("average", keys) }

    /// The largest values of `keys` (`_max<Key>`).
    public func max(keys: [String]) { addFunction("max", keys) }

    /// The smallest values of `keys` (`_min<Key>`).
    public func min(keys: [String]) { addFunction("min", keys) }

    /// Groups the results by `keys`.
    public func groupBy(keys: [String]) {
        updateStatistics { $0.groupBy += keys }
    }

    /// Whether each result holds the number of objects in its group (`_count`).
    public var groupCount: Bool {
        get { statisticsSnapshot.groupCount }
        set { updateStatistics { $0.groupCount = newValue } }
    }

    /// A condition on a result key (`having`): `query.having("_sumScore", .greaterThan(50))`.
    public func having(_ key: String, _ constraint: Constraint) {
        guard let json = ConstraintEncoder.condition(constraint, on: key)?.condition.wire[key] else { return }
        updateStatistics { $0.having[key] = json }
    }

    /// The statistics rows of the objects matching the query.
    public func calculate() async throws -> [LCDictionary] {
        let reply = try await RESTClient(application: application).send("GET", "/classes/\(className)", query: statisticsParameters)
        guard let rows = reply["results"]?.arrayValue else { throw LCError.malformed("The statistics reply has no results.") }
        let decoder = ObjectDecoder(application: application)
        return rows.map { row in LCDictionary(values: (row.objectValue ?? [:]).mapValues(decoder.value)) }
    }

    /// Calculates the statistics; `completion` gets `.success(objects:)` (the rows) or `.failure(error:)`.
    @discardableResult
    public func calculate(completionQueue: DispatchQueue = .main, completion: @escaping (LCQueryResult<LCDictionary>) -> Void) -> LCRequest {
        Call.start(on: completionQueue, completion: completion) { try await self.calculate() }
    }

    /// Calculates the statistics, blocking the calling thread.
    public func calculate() -> LCQueryResult<LCDictionary> {
        Call.wait { try await self.calculate() }
    }

    /// The find's parameters with `sum`, `average`, `max`, `min`, `groupby`, `groupcount` and `having`.
    var statisticsParameters: [(String, String)] {
        let statistics = statisticsSnapshot
        var parameters = parameters()
        for (name, keys) in statistics.functions where !keys.isEmpty { parameters.append((name, keys.joined(separator: ","))) }
        if !statistics.groupBy.isEmpty { parameters.append(("groupby", statistics.groupBy.joined(separator: ","))) }
        if statistics.groupCount { parameters.append(("groupcount", "true")) }
        if !statistics.having.isEmpty { parameters.append(("having", JSONWriter.string(.object(statistics.having)))) }
        return parameters
    }

    private func addFunction(_ name: String, _ keys: [String]) {
        updateStatistics { statistics in
            if let index = statistics.functions.firstIndex(where: { $0.name == name }) {
                statistics.functions[index].keys += keys
            } else {
                statistics.functions.append((name, keys))
            }
        }
    }
}
