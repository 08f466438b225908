import CirrusModel
import CirrusQueryLanguage
import CirrusServices
import CirrusStorage
import HTTPTypes

/// `GET /cloudQuery`: LeanCloud's CQL (`cql`, `pvalues`) and, on the Bmob path, BQL (`bql`, `values`).
///
/// A select answers `{"results":[…],"className":"C"}` with `"count"` when `count(*)` is selected (Bmob's reply
/// has no `className`, like its finds); statistics answer `{"results":[rows]}`; an insert answers the created
/// objects' `objectId` and `createdAt`, an update the object's `objectId` and `updatedAt`, a delete no results.
struct CloudQueryController: Sendable {
    let cloudQuery: CloudQueryService

    func register(on router: inout APIRouter) {
        router.on(.get, "cloudQuery") { try await run($0) }
    }

    private func run(_ request: APIRequest) async throws -> APIResponse {
        let language = request.dialect.cloudQueryLanguage
        guard let source = request.query[language.rawValue] ?? request.query["cql"], !source.isEmpty else {
            throw APIError(.invalidParameter, "The \(language.rawValue) parameter is required.")
        }
        let valuesText = request.dialect == .bmob ? request.query["values"] ?? request.query["pvalues"] : request.query["pvalues"]
        let options = QueryParameters(request: request, limits: cloudQuery.objects.configuration.queryLimits).conditionOptions
        let outcome = try await cloudQuery.execute(
            source, language: language, values: try Self.placeholderValues(valuesText), options: options,
            writeOptions: WriteOptions(idStyle: request.dialect.idStyle, defaultOffsetMinutes: request.dialect.defaultOffsetMinutes),
            dayOffsetMinutes: request.dialect.defaultOffsetMinutes, caller: request.caller
        )
        return APIResponse(body: try await reply(outcome, request))
    }

    /// `pvalues`: a JSON array of REST values. The LeanCloud Python SDK double-encodes a list it is given
    /// (`"[1]"` as a JSON string), so a string is decoded once more.
    static func placeholderValues(_ text: String?) throws(APIError) -> [JSON] {
        guard let text, !text.isEmpty else { return [] }
        var json = try parse(text)
        if case .string(let inner) = json { json = try parse(inner) }
        guard case .array(let values) = json else { throw APIError(.invalidJSON, "pvalues must be a JSON array.") }
        return values
    }

    private static func parse(_ text: String) throws(APIError) -> JSON {
        do {
            return try JSONParser.parse(Array(text.utf8))
        } catch {
            throw APIError(.invalidJSON, "pvalues is not valid JSON: \(error.description).")
        }
    }

    private func reply(_ outcome: CloudQueryService.Outcome, _ request: APIRequest) async throws -> JSON {
        let encoder = ObjectEncoder(dialect: request.dialect)
        let dialect = request.dialect
        var body: [String: JSON]
        var className: String
        switch outcome {
        case .found(let query, let objects, let count):
            let schema = try await cloudQuery.objects.schema(of: query.className)
            let include = IncludeSelection(paths: query.include)
            body = ["results": .array(objects.map { encoder.encode($0, schema: schema, keys: query.keys, include: include) })]
            if let count { body["count"] = .int(Int64(count)) }
            className = query.className
        case .statistics(_, let rows):
            return ["results": .array(rows.map(encoder.convert))]
        case .created(let name, let objects):
            body = ["results": .array(objects.map { ["objectId": .string($0.objectId), "createdAt": .string(dialect.format($0.createdAt))] })]
            className = name
        case .updated(let object):
            body = ["results": [["objectId": .string(object.objectId), "updatedAt": .string(dialect.format(object.updatedAt))]]]
            className = object.className
        case .deleted(let name, _):
            body = ["results": []]
            className = name
        }
        if dialect != .bmob { body["className"] = .string(className) }
        return .object(body)
    }
}
