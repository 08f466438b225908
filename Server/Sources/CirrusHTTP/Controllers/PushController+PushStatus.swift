import CirrusModel
import CirrusServices
import CirrusStorage

/// Parse's `_PushStatus` class, read-only and for the master key: each push record as parse-server keeps it
/// (`pushTime`, `source`, `query` and `payload` as JSON text, `status` pending, scheduled, running, succeeded or failed,
/// `numSent`, `numFailed`, `count`, `expiry`). A find takes `where` (evaluated on those objects), `order` by `createdAt`
/// (newest first by default), `skip`, `limit` and `count`, over the latest 1 000 pushes.
extension PushController {
    func pushStatus(_ request: APIRequest) async throws -> APIResponse {
        guard let kept = try await push.record(objectId: request.parameter("objectId"), caller: request.caller) else {
            throw APIError(.objectNotFound, "Object not found.")
        }
        return APIResponse(body: Self.pushStatus(kept, dialect: request.dialect))
    }

    func pushStatuses(_ request: APIRequest) async throws -> APIResponse {
        let kept = try await push.records(limit: 1000, caller: request.caller)
        let condition = try request.query["where"].map { text throws(APIError) -> Condition in
            guard let json = try? JSONParser.parse(text) else { throw APIError(.invalidJSON, "where is not JSON.") }
            return try Condition(where: json)
        }
        var matching = kept.filter { record in
            condition?.matches(ConditionSubject(
                className: "_PushStatus", objectId: record.objectId, createdAt: record.createdAt, updatedAt: record.updatedAt,
                fields: Self.pushStatusFields(record)
            )) ?? true
        }
        switch request.query["order"] {
        case nil, "-createdAt": break
        case "createdAt": matching.reverse()
        case let other?: throw APIError(.invalidQuery, "_PushStatus is ordered by createdAt only, not \(other.prefix(64)).")
        }
        let skip = max(0, request.query["skip"].flatMap { Int($0) } ?? 0)
        let limit = max(0, min(1000, request.query["limit"].flatMap { Int($0) } ?? 100))
        let page = matching.dropFirst(skip).prefix(limit)
        var body: [String: JSON] = ["results": .array(page.map { Self.pushStatus($0, dialect: request.dialect) })]
        if request.flag("count") { body["count"] = .int(Int64(matching.count)) }
        return APIResponse(body: .object(body))
    }

    /// A push as a `_PushStatus` object.
    static func pushStatus(_ record: StoredPush, dialect: Dialect) -> JSON {
        var members = pushStatusFields(record)
        members["objectId"] = .string(record.objectId)
        members["createdAt"] = .string(dialect.format(record.createdAt))
        members["updatedAt"] = .string(dialect.format(record.updatedAt))
        return .object(members)
    }

    static func pushStatusFields(_ record: StoredPush) -> [String: JSON] {
        let request = (try? JSONParser.parse(Array(record.request.utf8)))?.objectValue ?? [:]
        let status: String
        var error: String?
        switch record.status {
        case .scheduled: status = record.pushTime > record.createdAt ? "scheduled" : "pending"
        case .sending: status = "running"
        case .done: status = "succeeded"
        case .cancelled: (status, error) = ("failed", "cancelled")
        case .expired: (status, error) = ("failed", "expired before it was sent to every device")
        }
        var fields: [String: JSON] = [
            "pushTime": .string(record.pushTime.iso8601), "source": "rest", "status": .string(status),
            "query": .string(JSONWriter.string(request["where"] ?? [:])), "payload": .string(JSONWriter.string(request["data"] ?? [:])),
            "numSent": .int(Int64(record.sent)), "numFailed": .int(Int64(record.failed + record.invalid)),
            "count": .int(Int64(record.sent + record.failed + record.invalid)),
        ]
        if let expiresAt = record.expiresAt { fields["expiry"] = .int(expiresAt.millisecondsSince1970) }
        if let error { fields["errorMessage"] = .string(error) }
        return fields
    }
}
