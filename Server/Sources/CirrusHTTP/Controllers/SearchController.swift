import CirrusModel
import CirrusServices
import CirrusStorage
import HTTPTypes

/// LeanCloud's in-app search (docs/SEARCH.md): `GET /search/select` (`q`, `clazz`, `limit`, `skip`, `sid`, `fields`,
/// `highlights`, `include`, `order`, `sort`) → `{"hits","results":[object + className + _highlight],"sid"}`, and
/// `GET /search/mlt` (more like a text or some objects), and `GET /search/analyze` (`text`; master key) → the server's
/// tokens.
struct SearchController: Sendable {
    let search: SearchService
    let cursors: SearchCursorCodec
    let limits: QueryLimits

    func register(on router: inout APIRouter) {
        router.on(.get, "search/select", dialects: [.leancloud]) { try await select($0) }
        router.on(.get, "search/analyze", dialects: [.leancloud]) { try analyze($0) }
        router.on(.get, "search/mlt", dialects: [.leancloud]) { try await moreLikeThis($0) }
    }

    private func select(_ request: APIRequest) async throws -> APIResponse {
        var parameters = request.query
        var skip = 0
        if let sid = parameters.removeValue(forKey: "sid"), !sid.isEmpty {
            let opened = try cursors.open(sid, now: .now())
            // The client repeats its query with the sid; a sid of another query is refused rather than mixed in.
            for key in ["q", "clazz"] where parameters[key] != nil && parameters[key] != opened.parameters[key] {
                throw APIError(.invalidParameter, "The sid belongs to another search (its '\(key)' differs).")
            }
            parameters = opened.parameters
            skip = opened.skip
        } else {
            skip = try QueryParameters.count("skip", in: parameters, default: 0)
        }
        guard let q = parameters["q"], !q.isEmpty else { throw APIError(.missingRequiredField, "'q' is required: the query string to search for.") }
        var limit = 100
        if let text = parameters["limit"], !text.isEmpty {
            guard let value = Int(text) else { throw APIError(.invalidQuery, "'limit' must be an integer, got '\(text)'.") }
            limit = value
        }
        let include = try IncludeSelection(parsing: parameters["include"] ?? "")
        try limits.checkInclude(include.paths)
        let (order, near) = try Self.order(parameters)
        let searchRequest = SearchService.Request(
            q: q, className: parameters["clazz"].flatMap { $0.isEmpty ? nil : $0 }, limit: limit, skip: skip, order: order,
            highlights: Self.list(parameters["highlights"]), include: include.paths, near: near
        )
        let found = try await search.select(searchRequest, caller: request.caller)
        let keys = try KeySelection(parsing: parameters["fields"] ?? "")
        let results = encode(found.results, request: request, keys: keys.included.isEmpty ? nil : keys, include: include)
        let next = skip + found.results.count
        let more = !found.results.isEmpty && next < found.hits
        let sid: JSON = more ? .string(cursors.seal(parameters: parameters.filter { $0.key != "skip" }, skip: next, now: .now())) : .null
        return APIResponse(body: ["hits": .int(Int64(found.hits)), "results": .array(results), "sid": sid])
    }

    /// `{"results":[object + className + _highlight],"sid":null}`: `like` or `likeObjectIds`, `fields`,
    /// `min_term_freq`, `limit`, `skip`, `include` (LeanCloud's `min_doc_freq` and `max_doc_freq` are not used).
    private func moreLikeThis(_ request: APIRequest) async throws -> APIResponse {
        let parameters = request.query
        let include = try IncludeSelection(parsing: parameters["include"] ?? "")
        try limits.checkInclude(include.paths)
        func number(_ name: String, _ fallback: Int) throws(APIError) -> Int { try QueryParameters.count(name, in: parameters, default: fallback) }
        let searchRequest = SearchService.Request(
            q: "*", className: parameters["clazz"].flatMap { $0.isEmpty ? nil : $0 }, limit: try number("limit", 100), skip: try number("skip", 0),
            highlights: Self.list(parameters["highlights"]), include: include.paths
        )
        let hits = try await search.moreLikeThis(
            searchRequest, like: parameters["like"].flatMap { $0.isEmpty ? nil : $0 }, likeObjectIds: Self.list(parameters["likeObjectIds"]),
            fields: Self.list(parameters["fields"]), minimumTermFrequency: try number("min_term_freq", 1), caller: request.caller
        )
        return APIResponse(body: ["results": .array(encode(hits, request: request, keys: nil, include: include)), "sid": .null])
    }

    /// Each hit as an object with its `className` and `_highlight`.
    private func encode(_ hits: [SearchService.Hit], request: APIRequest, keys: KeySelection?, include: IncludeSelection) -> [JSON] {
        let encoder = ObjectEncoder(dialect: request.dialect)
        return hits.compactMap { hit in
            guard case .object(var members) = encoder.encode(hit.object, schema: nil, keys: keys, include: include) else { return nil }
            members["className"] = .string(hit.object.className)
            members["_highlight"] = hit.highlight.map { .object($0.mapValues { .array($0.map(JSON.string)) }) } ?? .null
            return .object(members)
        }
    }

    /// `highlights=a,b` or `*`.
    static func list(_ text: String?) -> [String] {
        (text ?? "").split(separator: ",").map { $0.trimmingCharacters(in: " ") }.filter { !$0.isEmpty }
    }

    /// `order` (`-_score`: relevance, which is also the default) or `sort` (LeanCloud's JSON: fields, `_score`, and
    /// `_geo_distance` alone, `{"_geo_distance": {"<field>": {"lat":…,"lon":…} | [lat, lon], "order": "asc"}}`).
    static func order(_ parameters: [String: String]) throws(APIError) -> (order: [SortKey], near: (path: FieldPath, point: GeoPoint, descending: Bool)?) {
        let given = parameters["order"] ?? ""
        let order = given.split(separator: ",").map { $0.trimmingCharacters(in: " ") }.filter { !$0.isEmpty && !["_score", "-_score"].contains($0) }
        guard let sortText = parameters["sort"], !sortText.isEmpty else { return (try SortKey.parseList(order.joined(separator: ",")), nil) }
        guard given.isEmpty else { throw APIError(.invalidQuery, "'sort' and 'order' cannot be given together.") }
        let sort: JSON
        do { sort = try JSONParser.parse(sortText) } catch { throw APIError(.invalidJSON, "'sort' is not valid JSON: \(error.description).") }
        let items: [JSON] = sort.arrayValue ?? [sort]
        var keys: [SortKey] = []
        var near: (path: FieldPath, point: GeoPoint, descending: Bool)?
        for item in items {
            guard case .object(let members) = item, members.count == 1, let (field, spec) = members.first else {
                throw APIError(.invalidQuery, "Each 'sort' item is {\"<field>\": {\"order\": \"asc\"|\"desc\"}}.")
            }
            let direction = spec["order"]?.stringValue ?? "asc"
            guard ["asc", "desc"].contains(direction) else { throw APIError(.invalidQuery, "A sort order is 'asc' or 'desc', got '\(direction)'.") }
            if field == "_geo_distance" {
                guard items.count == 1 else { throw APIError(.invalidQuery, "A _geo_distance sort cannot be combined with other sort keys.") }
                near = try Self.distance(spec, descending: direction == "desc")
                continue
            }
            if field == "_score" { continue }
            guard let path = try? FieldPath(parsing: field) else { throw APIError(.invalidQuery, "Invalid sort field '\(field)'.") }
            keys.append(SortKey(path: path, descending: direction == "desc"))
        }
        return (keys, near)
    }

    /// The field and point of a `_geo_distance` sort.
    static func distance(_ spec: JSON, descending: Bool) throws(APIError) -> (path: FieldPath, point: GeoPoint, descending: Bool) {
        let options: Set<String> = ["order", "unit", "mode", "distance_type", "ignore_unmapped"]
        guard case .object(let members) = spec, let (field, location) = members.first(where: { !options.contains($0.key) }),
            let path = try? FieldPath(parsing: field)
        else { throw APIError(.invalidQuery, "A _geo_distance sort names a GeoPoint field and its point.") }
        let latitude: Double?
        let longitude: Double?
        switch location {
        case .object(let point): (latitude, longitude) = (point["lat"]?.doubleValue, point["lon"]?.doubleValue)
        case .array(let pair) where pair.count == 2: (latitude, longitude) = (pair[0].doubleValue, pair[1].doubleValue)
        default: (latitude, longitude) = (nil, nil)
        }
        guard let latitude, let longitude else { throw APIError(.invalidGeoPoint, "A _geo_distance point is {\"lat\",\"lon\"} or [lat, lon].") }
        return (path, try GeoPoint(latitude: latitude, longitude: longitude), descending)
    }

    private func analyze(_ request: APIRequest) throws -> APIResponse {
        let tokens = try search.analyze(request.query["text"] ?? "", caller: request.caller)
        let list: [JSON] = tokens.map { token in
            [
                "token": .string(token.text), "start_offset": .int(Int64(token.startOffset)), "end_offset": .int(Int64(token.endOffset)),
                "type": "word", "position": .int(Int64(token.position - 1)),
            ]
        }
        return APIResponse(body: ["tokens": .array(list)])
    }
}
