import CirrusModel
import CirrusServices
import CirrusStorage
import HTTPTypes

/// LeanCloud's statuses and inboxes (docs/SOCIAL.md): `POST /statuses` (send to a query's audience),
/// `GET /statuses[/<id>]` (`_Status` as a class), `DELETE /statuses/<id>` (and from every inbox), and the inbox:
/// `GET /subscribe/statuses` (`owner`, `inboxType`, `where`, `sinceId`, `maxId`, `limit`, `count`, `include`, `keys`),
/// `/subscribe/statuses/count`, `POST /subscribe/statuses/resetUnreadCount`, `DELETE /subscribe/statuses/inbox`.
struct StatusesController: Sendable {
    let statuses: StatusService
    let objects: ObjectsController

    /// The most statuses one inbox page returns (LeanCloud's limit).
    static let maximumPage = 100

    func register(on router: inout APIRouter) {
        let leancloud: Set<Dialect> = [.leancloud]
        router.on(.post, "statuses", dialects: leancloud) { try await send($0) }
        router.on(.get, "statuses", dialects: leancloud) { try await objects.find($0.addressing("_Status")) }
        router.on(.get, "statuses/:objectId", dialects: leancloud) { try await objects.get($0.addressing("_Status")) }
        router.on(.delete, "statuses/:objectId", dialects: leancloud) { try await delete($0) }
        router.on(.get, "subscribe/statuses", dialects: leancloud) { try await inbox($0) }
        router.on(.get, "subscribe/statuses/count", dialects: leancloud) { try await count($0) }
        router.on(.post, "subscribe/statuses/resetUnreadCount", dialects: leancloud) { try await resetUnread($0) }
        router.on(.delete, "subscribe/statuses/inbox", dialects: leancloud) { try await removeEntry($0) }
    }

    private func send(_ request: APIRequest) async throws -> APIResponse {
        let status = try await statuses.send(try request.objectBody(), caller: request.caller)
        return APIResponse(status: .created, body: ["objectId": .string(status.objectId), "createdAt": .string(request.dialect.format(status.createdAt))])
    }

    private func delete(_ request: APIRequest) async throws -> APIResponse {
        try await statuses.delete(request.parameter("objectId"), caller: request.caller)
        return APIResponse(body: [:])
    }

    /// The inbox a request names: `owner` and `inboxType` from the query string, or from a JSON body (the JavaScript
    /// SDK sends `resetUnreadCount`'s in its body).
    private func inboxKey(_ request: APIRequest) throws(APIError) -> InboxKey {
        var owner: JSON?
        var type = request.query["inboxType"]
        if let text = request.query["owner"], !text.isEmpty {
            do { owner = try JSONParser.parse(text) } catch { throw APIError(.invalidJSON, "'owner' is not valid JSON: \(error.description).") }
        } else if case .object(let members) = try request.optionalJSONBody() {
            owner = members["owner"]
            type = type ?? members["inboxType"]?.stringValue
        }
        return try statuses.inbox(owner: owner, type: type, caller: request.caller)
    }

    /// `{"results":[status + messageId + inboxType],"end":bool[,"count"]}`.
    private func inbox(_ request: APIRequest) async throws -> APIResponse {
        let key = try inboxKey(request)
        let parameters = QueryParameters(request: request, limits: objects.objects.configuration.queryLimits)
        let include = try parameters.include()
        let keys = try parameters.keys()
        let page = try await statuses.read(
            key, condition: try parameters.condition(), sinceId: Int64(try QueryParameters.count("sinceId", in: request.query, default: 0)), maxId: Int64(try QueryParameters.count("maxId", in: request.query, default: 0)),
            limit: min(try parameters.limit(), Self.maximumPage), include: include.paths, caller: request.caller
        )
        let schema = try await objects.objects.schema(of: "_Status")
        let encoder = ObjectEncoder(dialect: request.dialect)
        let results: [JSON] = page.statuses.map { status, entry in
            guard case .object(var members) = encoder.encode(status, schema: schema, keys: keys, include: include) else { return .null }
            members["messageId"] = .int(entry.messageId)
            members["inboxType"] = .string(key.type)
            return .object(members)
        }
        // `end`: this page holds the inbox's oldest status. An empty page answers `false`, as LeanCloud's do (R#7, R#9):
        // a client stops paging at an empty page.
        var body: [String: JSON] = ["results": .array(results), "end": .bool(page.end && !results.isEmpty)]
        if request.flag("count") { body["count"] = .int(Int64(try await objects.objects.store.inboxCount(key).total)) }
        return APIResponse(body: .object(body))
    }

    private func count(_ request: APIRequest) async throws -> APIResponse {
        let counted = try await objects.objects.store.inboxCount(try inboxKey(request))
        return APIResponse(body: ["total": .int(Int64(counted.total)), "unread": .int(Int64(counted.unread))])
    }

    private func resetUnread(_ request: APIRequest) async throws -> APIResponse {
        try await objects.objects.store.markInboxRead(try inboxKey(request))
        return APIResponse(body: [:])
    }

    private func removeEntry(_ request: APIRequest) async throws -> APIResponse {
        let key = try inboxKey(request)
        let messageId = Int64(try QueryParameters.count("messageId", in: request.query, default: 0))
        guard messageId > 0 else { throw APIError(.missingRequiredField, "'messageId' names the inbox entry to remove.") }
        guard try await objects.objects.store.removeInboxEntry(key, messageId: messageId) else {
            throw APIError(.objectNotFound, "No status \(messageId) in this inbox.")
        }
        return APIResponse(body: [:])
    }
}
