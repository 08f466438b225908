import CirrusModel
import CirrusServices
import CirrusStorage
import HTTPTypes

/// Pushes: `POST /push` (LeanCloud `{"objectId","createdAt"}`; Parse `{"result": true}` with `X-Parse-Push-Status-Id`),
/// LeanCloud's `POST /push/devices`, the records (`GET /notifications[/<id>]`, LeanCloud's `GET /tables/Notifications/<id>`,
/// Parse's `_PushStatus` class), and LeanCloud's scheduled pushes (`GET /scheduledPushMessages`,
/// `DELETE /scheduledPushMessages/<id>`). Records and schedules need the master key. Registered before the object
/// endpoints, whose `classes/:className` would take `classes/_PushStatus`.
struct PushController: Sendable {
    let push: PushService

    func register(on router: inout APIRouter) {
        router.on(.post, "push") { try await send($0) }
        router.on(.post, "push/devices", dialects: [.leancloud]) { request in
            try await send(request, body: try PushRequest.devicesBody(try request.objectBody()))
        }
        router.on(.get, "classes/_PushStatus", dialects: [.parse]) { try await pushStatuses($0) }
        router.on(.get, "classes/_PushStatus/:objectId", dialects: [.parse]) { try await pushStatus($0) }
        router.on(.get, "notifications") { try await records($0) }
        router.on(.get, "notifications/:objectId") { try await record($0) }
        router.on(.get, "tables/Notifications/:objectId", dialects: [.leancloud]) { try await record($0) }
        router.on(.get, "scheduledPushMessages", dialects: [.leancloud]) { try await scheduled($0) }
        router.on(.delete, "scheduledPushMessages/:id", dialects: [.leancloud]) { try await cancel($0) }
    }

    private func send(_ request: APIRequest, body: JSON? = nil) async throws -> APIResponse {
        let kept = try await push.send(try body ?? request.objectBody(), channelsOrWhere: request.dialect == .parse, caller: request.caller)
        switch request.dialect {
        case .parse:
            return APIResponse(body: ["result": true], headers: [(HTTPField.Name("X-Parse-Push-Status-Id")!, kept.objectId)])
        case .leancloud, .bmob:
            return APIResponse(body: ["objectId": .string(kept.objectId), "createdAt": .string(request.dialect.format(kept.createdAt))])
        }
    }

    private func record(_ request: APIRequest) async throws -> APIResponse {
        guard let kept = try await push.record(objectId: request.parameter("objectId"), caller: request.caller) else {
            throw APIError(.objectNotFound, "No push \(request.parameter("objectId").prefix(64)).")
        }
        return APIResponse(body: Self.record(kept, dialect: request.dialect))
    }

    private func records(_ request: APIRequest) async throws -> APIResponse {
        let limit = request.query["limit"].flatMap { Int($0) } ?? 100
        let kept = try await push.records(limit: limit, caller: request.caller)
        return APIResponse(body: ["results": .array(kept.map { Self.record($0, dialect: request.dialect) })])
    }

    private func scheduled(_ request: APIRequest) async throws -> APIResponse {
        let kept = try await push.records(statuses: [.scheduled], limit: 1000, caller: request.caller)
        let results: [JSON] = kept.map { record in
            var message = (try? JSONParser.parse(Array(record.request.utf8)))?.objectValue ?? [:]
            message["push_time"] = .string(request.dialect.format(record.pushTime))
            return [
                "id": .int(record.serial), "expire_time": record.expiresAt.map { .int($0.millisecondsSince1970) } ?? .null,
                "push_msg": .object(message), "createdAt": .string(request.dialect.format(record.createdAt)),
            ]
        }
        return APIResponse(body: ["results": .array(results)])
    }

    private func cancel(_ request: APIRequest) async throws -> APIResponse {
        guard let serial = Int64(request.parameter("id")) else { throw APIError(.objectNotFound, "No scheduled push \(request.parameter("id").prefix(32)).") }
        try await push.cancel(serial: serial, caller: request.caller)
        return APIResponse(body: [:])
    }

    /// A push's record: its request, status and counts (`devices` reached in all, `successes`, `errors`, `invalid`).
    static func record(_ push: StoredPush, dialect: Dialect) -> JSON {
        var members = (try? JSONParser.parse(Array(push.request.utf8)))?.objectValue ?? [:]
        members["objectId"] = .string(push.objectId)
        members["status"] = .string(push.status.rawValue)
        members["push_time"] = .string(dialect.format(push.pushTime))
        if let expiresAt = push.expiresAt { members["expiration_time"] = .string(dialect.format(expiresAt)) }
        if let requestId = push.requestId { members["req_id"] = .string(requestId) }
        members["devices"] = .int(Int64(push.sent + push.failed + push.invalid))
        members["successes"] = .int(Int64(push.sent))
        members["errors"] = .int(Int64(push.failed))
        members["invalid"] = .int(Int64(push.invalid))
        members["createdAt"] = .string(dialect.format(push.createdAt))
        members["updatedAt"] = .string(dialect.format(push.updatedAt))
        return .object(members)
    }
}
