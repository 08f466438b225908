import CirrusLiveQuery
import CirrusModel
import HTTPTypes

/// LeanCloud's LiveQuery REST endpoints: `POST /1.1/LiveQuery/subscribe` `{query: {className, where, keys?,
/// returnACL?}, id?, sessionToken?}` → `{id, query_id}`, `unsubscribe` `{id, query_id}` (and the 2017 .NET SDK's
/// `unsubscribe/<id>`), `subscribe/ping`. The subscriber is the session of the body's `sessionToken` or of the
/// `X-LC-Session` header; the master key gives no extra rights.
struct LiveQueryController: Sendable {
    let liveQuery: LiveQueryService

    func register(on router: inout APIRouter) {
        router.on(.post, "LiveQuery/subscribe", dialects: [.leancloud], session: false) { request in
            let body = try request.jsonBody()
            guard case .object(let query)? = body["query"], let className = query["className"]?.stringValue else {
                throw APIError(.invalidParameter, "A LiveQuery subscription needs query.className.")
            }
            let returnACL = query["returnACL"].map { $0.boolValue ?? ($0.stringValue == "true") } ?? false
            let subscription = try await liveQuery.subscribe(
                className: className, where: query["where"] ?? [:], keys: Self.keys(query["keys"]), returnACL: returnACL,
                clientId: try Self.optionalString(body["id"], "id"), sessionToken: try Self.optionalString(body["sessionToken"], "sessionToken") ?? request.sessionToken
            )
            return APIResponse(body: ["id": .string(subscription.clientId), "query_id": .string(subscription.queryId)])
        }
        router.on(.post, "LiveQuery/unsubscribe", dialects: [.leancloud], session: false) { request in
            let (clientId, queryId) = try Self.identifiers(try request.jsonBody())
            try await liveQuery.unsubscribe(queryId: queryId, clientId: clientId)
            return APIResponse(body: [:])
        }
        router.on(.post, "LiveQuery/unsubscribe/:id", dialects: [.leancloud], session: false) { request in
            let body = try request.jsonBody()
            guard let queryId = body["query_id"]?.stringValue else { throw APIError(.invalidParameter, "query_id is required.") }
            try await liveQuery.unsubscribe(queryId: queryId, clientId: request.parameter("id"))
            return APIResponse(body: [:])
        }
        router.on(.post, "LiveQuery/subscribe/ping", dialects: [.leancloud], session: false) { request in
            let (clientId, queryId) = try Self.identifiers(try request.jsonBody())
            try await liveQuery.ping(queryId: queryId, clientId: clientId)
            return APIResponse(body: [:])
        }
    }

    /// `keys` as the SDKs send it: a comma-separated string (JavaScript) or an array; `nil` for none. (Parsed, and
    /// refused when invalid, as a query's `keys`.)
    static func keys(_ value: JSON?) -> [String]? {
        switch value {
        case .string(let text)? where !text.isEmpty: [text]
        case .array(let items)?: items.compactMap(\.stringValue)
        default: nil
        }
    }

    static func optionalString(_ value: JSON?, _ name: String) throws(APIError) -> String? {
        switch value {
        case nil, .null?: return nil
        case .string(let text)?: return text.isEmpty ? nil : text
        default: throw APIError(.invalidParameter, "\(name) must be a string.")
        }
    }

    static func identifiers(_ body: JSON) throws(APIError) -> (clientId: String, queryId: String) {
        guard let clientId = body["id"]?.stringValue, let queryId = body["query_id"]?.stringValue else {
            throw APIError(.invalidParameter, "id and query_id are required.")
        }
        return (clientId, queryId)
    }
}
