import CirrusModel
import CirrusServices
import CirrusStorage

/// `GET /classes/<Class>`: a find (with count), a statistics query when `sum`, `average`, `max`, `min`,
/// `groupby` or `groupcount` is given, or with `explain=true` (master key, as Parse's) the store's plan for the find:
/// `{"plan": [a line per step]}`.
extension ObjectsController {
    func find(_ request: APIRequest) async throws -> APIResponse {
        let parameters = QueryParameters(request: request, limits: objects.configuration.queryLimits)
        if parameters.asksForStatistics { return try await aggregate(request, parameters) }
        var className = request.parameter("className")
        var redirected: String?
        if let key = request.query["redirectClassNameForKey"], !key.isEmpty {
            className = try await objects.redirectedClassName(className, key: key)
            redirected = className
        }
        let query = try parameters.query(className: className)
        if request.flag("explain") { return APIResponse(body: ["plan": .array(try await objects.queryPlan(query, caller: request.caller).map(JSON.string))]) }
        let include = try parameters.include()
        let (found, count) = try await objects.find(query, withCount: request.flag("count"), caller: request.caller)
        let schema = try await objects.schema(of: className)
        let encoder = ObjectEncoder(dialect: request.dialect)
        let returnACL = request.flag("returnACL")
        let results = found.map { encoder.fragment($0, schema: schema, returnACL: returnACL, keys: query.keys, include: include) }
        var body: [String: JSONWriter.Fragment] = ["results": .array(results)]
        if let count { body["count"] = .value(.int(Int64(count))) }
        // The SDKs build the objects of a redirected relation query from the class named here.
        if let redirected { body["className"] = .value(.string(redirected)) }
        return APIResponse(body: .object(body))
    }

    /// `{"results":[{group keys, _sumScore…, _count}]}` with dates in the dialect's format.
    private func aggregate(_ request: APIRequest, _ parameters: QueryParameters) async throws -> APIResponse {
        let aggregation = try parameters.aggregation(className: request.parameter("className"))
        let rows = try await objects.aggregate(aggregation, caller: request.caller, dayOffsetMinutes: request.dialect.defaultOffsetMinutes)
        let encoder = ObjectEncoder(dialect: request.dialect)
        return APIResponse(body: ["results": .array(rows.map(encoder.convert))])
    }
}
