import CirrusModel
import CirrusServices
import HTTPTypes

/// Parse's Cloud Code webhooks (master key): `/hooks/functions[/<name>]` and `/hooks/triggers[/<class>/<trigger>]`,
/// `GET` to list or read, `POST` to register, `PUT` with `{"url"}` to change or `{"__op": "Delete"}` to remove,
/// `DELETE` to remove; replies as parse-server's, errors 143.
struct WebhooksController: Sendable {
    let webhooks: WebhookRegistry?

    func register(on router: inout APIRouter) {
        let parse: Set<Dialect> = [.parse]
        router.on(.get, "hooks/functions", dialects: parse) { try await list($0, functions: true) }
        router.on(.get, "hooks/triggers", dialects: parse) { try await list($0, functions: false) }
        router.on(.post, "hooks/functions", dialects: parse) { try await create($0, functions: true) }
        router.on(.post, "hooks/triggers", dialects: parse) { try await create($0, functions: false) }
        router.on(.get, "hooks/functions/:name", dialects: parse) { try await get($0) }
        router.on(.get, "hooks/triggers/:className/:trigger", dialects: parse) { try await get($0) }
        router.on(.put, "hooks/functions/:name", dialects: parse) { try await update($0) }
        router.on(.put, "hooks/triggers/:className/:trigger", dialects: parse) { try await update($0) }
        router.on(.delete, "hooks/functions/:name", dialects: parse) { try await delete($0) }
        router.on(.delete, "hooks/triggers/:className/:trigger", dialects: parse) { try await delete($0) }
    }

    private func registry(_ request: APIRequest) throws(APIError) -> WebhookRegistry {
        guard request.caller.isMaster else { throw APIError(.masterKeyRequired, "The master key is required.") }
        guard let webhooks else { throw APIError(.notFound, "Webhooks are not served.") }
        return webhooks
    }

    /// The webhook a path names.
    private func target(_ request: APIRequest) throws(APIError) -> ParseWebhook.Target {
        let className = request.parameter("className")
        guard !className.isEmpty else { return .function(request.parameter("name")) }
        let name = request.parameter("trigger")
        guard let trigger = ParseTrigger(rawValue: name) else { throw WebhookRegistry.missing(.trigger(className: className, .beforeSave)) }
        return .trigger(className: className, trigger)
    }

    private func list(_ request: APIRequest, functions: Bool) async throws -> APIResponse {
        APIResponse(body: .array(try await registry(request).list(functions: functions).map(\.wire)))
    }

    private func get(_ request: APIRequest) async throws -> APIResponse {
        let webhooks = try registry(request)
        return APIResponse(body: try await webhooks.get(try target(request)).wire)
    }

    private func create(_ request: APIRequest, functions: Bool) async throws -> APIResponse {
        let webhooks = try registry(request)
        return APIResponse(body: try await webhooks.create(try request.objectBody(), functions: functions).wire)
    }

    private func update(_ request: APIRequest) async throws -> APIResponse {
        let webhooks = try registry(request)
        let changed = try await webhooks.update(try target(request), body: try request.objectBody())
        return APIResponse(body: changed?.wire ?? [:])
    }

    private func delete(_ request: APIRequest) async throws -> APIResponse {
        let webhooks = try registry(request)
        try await webhooks.delete(try target(request))
        return APIResponse(body: [:])
    }
}
