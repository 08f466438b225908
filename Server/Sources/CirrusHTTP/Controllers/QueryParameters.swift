import CirrusModel

/// Decoding of the query parameters of finds and fetches: `where`, `order`, `limit`, `skip`, `keys`,
/// `excludeKeys`, `include`, `count`, `returnACL`, each checked against the server's ``QueryLimits`` as it is decoded.
struct QueryParameters {
    let request: APIRequest
    let limits: QueryLimits

    /// How `where` and `having` are read: the dialect's options and the server's limits.
    var conditionOptions: ConditionOptions {
        var options = request.dialect.conditionOptions
        options.limits = limits
        return options
    }

    /// The `where` condition, or `always` when absent.
    /// - Throws: ``APIError`` for JSON that does not parse or an invalid condition.
    func condition() throws(APIError) -> Condition {
        guard let text = request.query["where"], !text.isEmpty else { return .always }
        let json: JSON
        do {
            json = try JSONParser.parse(text)
        } catch {
            throw APIError(.invalidJSON, "'where' is not valid JSON: \(error.description).")
        }
        return try Condition(where: json, options: conditionOptions)
    }

    /// The `where` of a conditional update or delete, or `nil`.
    func writeCondition() throws(APIError) -> Condition? {
        guard let text = request.query["where"], !text.isEmpty else { return nil }
        let condition = try condition()
        return condition == .always ? nil : condition
    }

    /// `limit`: 100 when absent, at most 1000; 0 asks for a count only. A negative limit means the default in
    /// LeanCloud, as its documentation states, and is refused by Parse and Bmob.
    func limit() throws(APIError) -> Int {
        guard let text = request.query["limit"], !text.isEmpty else { return 100 }
        guard let value = Int(text) else { throw APIError(.invalidQuery, "'limit' must be an integer, got '\(text)'.") }
        if value < 0 {
            guard request.dialect == .leancloud else { throw APIError(.invalidQuery, "'limit' must not be negative, got '\(text)'.") }
            return 100
        }
        return min(value, 1000)
    }

    /// `skip`: 0 when absent.
    func skip() throws(APIError) -> Int {
        try Self.count("skip", in: request.query, default: 0)
    }

    /// A non-negative integer parameter of `parameters` (`skip`, an inbox's `sinceId`, …), `fallback` when absent.
    static func count(_ name: String, in parameters: [String: String], default fallback: Int) throws(APIError) -> Int {
        guard let text = parameters[name], !text.isEmpty else { return fallback }
        guard let value = Int(text), value >= 0 else { throw APIError(.invalidQuery, "'\(name)' must be a non-negative integer, got '\(text)'.") }
        return value
    }

    /// `order`, a repeated key counting once.
    func order() throws(APIError) -> [SortKey] {
        let order = try SortKey.parseList(request.query["order"] ?? "")
        try limits.checkOrder(order)
        return order
    }

    /// `keys` (with `-key` exclusions) merged with Parse's `excludeKeys`.
    func keys() throws(APIError) -> KeySelection? {
        var selection = try KeySelection(parsing: request.query["keys"] ?? "")
        let excluded = try KeySelection(parsing: request.query["excludeKeys"] ?? "")
        selection.excluded += excluded.included
        try limits.checkKeys(selection.included.count + selection.excluded.count, in: "keys")
        return selection.included.isEmpty && selection.excluded.isEmpty ? nil : selection
    }

    /// `include=a,b.c,post[title|content]` (spaces around commas allowed; a repeated path counts once).
    func include() throws(APIError) -> IncludeSelection {
        let selection = try IncludeSelection(parsing: request.query["include"] ?? "")
        try limits.checkInclude(selection.paths)
        return selection
    }

    /// The whole find.
    func query(className: String) throws(APIError) -> Query {
        Query(
            className: className, condition: try condition(), order: try order(), limit: try limit(), skip: try skip(),
            keys: try keys(), include: try include().paths
        )
    }
}

extension Substring {
    func trimmingCharacters(in set: Character) -> String {
        String(drop(while: { $0 == set }).reversed().drop(while: { $0 == set }).reversed())
    }
}
