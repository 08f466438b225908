package import CirrusModel
import CirrusQueryLanguage
package import CirrusStorage

/// A push as a client asks for it (`POST /push`), read and checked: what to send, to which installations, when, and
/// until when.
package struct PushRequest: Sendable, Equatable {
    /// What each device gets (with per-platform overrides: `ios`, `android`, `fcm`).
    package var data: [String: JSON]
    /// The installations it goes to: a `where` over `_Installation` (the `channels` folded in as a condition on the
    /// `channels` array); `{}` for every installation.
    package var audience: JSON
    /// LeanCloud's other form of audience: a CQL `select` from `_Installation`, whose condition is the audience.
    package var cql: String?
    /// When it is due; `nil` for now.
    package var pushTime: Timestamp?
    package var expiresAt: Timestamp?
    /// Apple's development environment (`prod: "dev"`), production (`"prod"`), or the server's setting (`nil`).
    package var sandbox: Bool?
    /// The client's `req_id`: the same push asked for twice within five minutes is sent once.
    package var requestId: String?
    package var notificationId: String?

    /// How long a `req_id` de-duplicates.
    package static let deduplicationWindow: Int64 = 5 * 60 * 1000
    /// The largest body (LeanCloud's and APNs' 4 KB).
    package static let maximumSize = 4096

    /// The audience as a condition over `_Installation`.
    package func condition() throws(APIError) -> Condition {
        guard let cql else { return try Condition(where: audience) }
        let statement: CompiledStatement
        do {
            statement = try StatementCompiler(language: .cql, now: .now()).compile(cql)
        } catch {
            throw Self.invalid("CQL syntax error.Detail: \(error.report(for: cql))")
        }
        guard case .find(let find) = statement, find.query.className == "_Installation" else {
            throw Self.invalid("cql must be a select from _Installation")
        }
        return find.query.condition
    }

    /// Reads a request body.
    /// - Parameter channelsOrWhere: Parse's rule: exactly one of `channels` and `where` (else 115); LeanCloud's and
    ///   Bmob's: both may be given (they must both hold), and neither means every installation.
    /// - Throws: ``APIError`` ``APIError/Reason/invalidPush`` naming what is wrong.
    package static func reading(_ body: JSON, channelsOrWhere: Bool, now: Timestamp) throws(APIError) -> PushRequest {
        guard case .object(let members) = body else { throw invalid("the body must be a JSON object") }
        guard JSONWriter.bytes(body).count <= maximumSize else { throw invalid("the push is larger than \(maximumSize) bytes") }
        guard case .object(let data)? = members["data"] else { throw invalid("data (an object) is required") }
        var parts: [JSON] = []
        switch members["where"] {
        case nil, .null?: break
        case .object(let condition)?: if !condition.isEmpty { parts.append(.object(condition)) }
        default: throw invalid("where must be a query object")
        }
        switch members["channels"] {
        case nil, .null?: break
        case .array(let channels)? where channels.allSatisfy({ $0.stringValue != nil }) && !channels.isEmpty:
            parts.append(["channels": ["$in": .array(channels)]])
        default: throw invalid("channels must be a non-empty list of strings")
        }
        if channelsOrWhere {
            if members["where"] != nil, members["channels"] != nil { throw invalid("Channels and query can not be set at the same time.") }
            if parts.isEmpty { throw invalid("Sending a push requires either \"channels\" or a \"where\" query.") }
        }
        let audience: JSON = parts.count > 1 ? ["$and": .array(parts)] : parts.first ?? [:]
        var request = PushRequest(data: data, audience: audience)
        switch members["cql"] {
        case nil, .null?: break
        case .string? where !parts.isEmpty: throw invalid("cql can not be set with where or channels")
        case .string(let cql)?: request.cql = cql
        default: throw invalid("cql must be a string")
        }
        _ = try request.condition()
        if let time = try date(members["push_time"], "push_time"), time.millisecondsSince1970 > now.millisecondsSince1970 + 60_000 {
            request.pushTime = time
        }
        let start = request.pushTime ?? now
        switch (try date(members["expiration_time"], "expiration_time"), members["expiration_interval"]) {
        case (let time?, nil):
            request.expiresAt = time
        case (nil, let interval?):
            guard let seconds = interval.intValue ?? interval.stringValue.flatMap({ Int64($0) }), seconds > 0 else {
                throw invalid("expiration_interval must be a positive number of seconds")
            }
            request.expiresAt = Timestamp(millisecondsSince1970: start.millisecondsSince1970 + seconds * 1000)
        case (nil, nil):
            break
        default:
            throw invalid("expiration_time and expiration_interval can not be set at the same time")
        }
        if let expiresAt = request.expiresAt, expiresAt <= start { throw invalid("the push expires before it is sent") }
        switch members["prod"]?.stringValue {
        case nil: break
        case "dev": request.sandbox = true
        case "prod": request.sandbox = false
        default: throw invalid("prod must be dev or prod")
        }
        request.requestId = try shortId(members["req_id"], "req_id")
        request.notificationId = try shortId(members["notification_id"], "notification_id")
        return request
    }

    /// LeanCloud's `POST /push/devices` body as a push body: `device_type` (`ios`, `android`, …) and `device_ids` (1–500
    /// device tokens for Apple platforms, installation ids for Android) become the `where` naming those devices.
    /// - Throws: ``APIError/Reason/invalidPush`` for a missing or malformed type or list, or an audience besides it.
    package static func devicesBody(_ body: JSON) throws(APIError) -> JSON {
        guard case .object(var members) = body else { throw invalid("the body must be a JSON object") }
        guard let type = members["device_type"]?.stringValue, !type.isEmpty else { throw invalid("device_type is required") }
        guard case .array(let ids)? = members["device_ids"], (1...500).contains(ids.count), ids.allSatisfy({ !($0.stringValue ?? "").isEmpty }) else {
            throw invalid("device_ids must be a list of 1 to 500 ids")
        }
        for key in ["where", "channels", "cql"] where members[key] != nil { throw invalid("\(key) can not be set with device_ids") }
        let field = type.lowercased() == "android" ? "installationId" : "deviceToken"
        let lowered = ids.map { JSON.string(DeviceIdentifier.canonical($0.stringValue ?? "")) }
        members["device_type"] = nil
        members["device_ids"] = nil
        members["where"] = .object(["deviceType": .string(type), field: ["$in": .array(lowered)]])
        return .object(members)
    }

    /// An ISO 8601 string or a `{"__type": "Date"}`, or `nil` when absent.
    static func date(_ value: JSON?, _ name: String) throws(APIError) -> Timestamp? {
        switch value {
        case nil, .null?: return nil
        case .string(let text)?:
            guard let time = Timestamp(parsing: text) else { throw invalid("\(name) must be an ISO 8601 date") }
            return time
        case .object(let date)? where date["__type"]?.stringValue == "Date":
            guard let time = date["iso"]?.stringValue.flatMap({ Timestamp(parsing: $0) }) else { throw invalid("\(name) must be an ISO 8601 date") }
            return time
        default:
            throw invalid("\(name) must be an ISO 8601 date")
        }
    }

    /// 1–16 letters and digits (LeanCloud's `req_id`, `notification_id`), or `nil` when absent.
    static func shortId(_ value: JSON?, _ name: String) throws(APIError) -> String? {
        guard let value, value != .null else { return nil }
        guard let text = value.stringValue, (1...16).contains(text.utf8.count),
            text.utf8.allSatisfy({ (0x30...0x39).contains($0) || (0x41...0x5A).contains($0) || (0x61...0x7A).contains($0) })
        else { throw invalid("\(name) must be 1 to 16 letters and digits") }
        return text
    }

    static func invalid(_ message: String) -> APIError {
        APIError(.invalidPush, message)
    }

    // MARK: Stored form

    /// The request as the pushes table keeps it.
    package var stored: String {
        var members: [String: JSON] = ["data": .object(data), "where": audience]
        if let cql { members["cql"] = .string(cql) }
        if let sandbox { members["prod"] = .string(sandbox ? "dev" : "prod") }
        if let notificationId { members["notification_id"] = .string(notificationId) }
        return JSONWriter.string(.object(members))
    }

    /// The request a stored push holds.
    package init?(stored push: StoredPush) {
        guard case .object(let members)? = try? JSONParser.parse(Array(push.request.utf8)), case .object(let data)? = members["data"] else {
            return nil
        }
        self.init(data: data, audience: members["where"] ?? [:], pushTime: push.pushTime, expiresAt: push.expiresAt)
        cql = members["cql"]?.stringValue
        sandbox = members["prod"]?.stringValue.map { $0 == "dev" }
        notificationId = members["notification_id"]?.stringValue
        requestId = push.requestId
    }

    package init(data: [String: JSON], audience: JSON, pushTime: Timestamp? = nil, expiresAt: Timestamp? = nil) {
        self.data = data
        self.audience = audience
        self.pushTime = pushTime
        self.expiresAt = expiresAt
    }
}
