import CirrusModel
public import Foundation

/// Sends push notifications (`POST /1.1/push`), as LeanCloud's `LCPush` does, and returns the push's id.
///
/// ```swift
/// let id = try await LCPush.send(data: ["alert": "Hello", "badge": "Increment"], channels: ["news"])
/// let query = LCQuery(className: "_Installation")
/// query.whereKey("deviceType", .equalTo("ios"))
/// _ = try await LCPush.send(data: ["alert": "Hi"], query: query, pushDate: tomorrow, expirationInterval: 3600)
/// ```
/// A Cirrus server takes pushes from the master key only unless it runs with `--client-push true`; an app holding the
/// master key (a trusted tool, never a shipped app) sets it up with `key: "<master key>,master"` and
/// `signsRequests: false`. A refused push fails with the server's `LCError` (LeanCloud code 1).
///
/// The body holds the keys LeanCloud's Swift SDK sends: `prod` (`"dev"` for ``LCApplication/Environment/pushDevelopment``,
/// `"prod"` for ``LCApplication/Environment/pushProduction``, absent otherwise: the server's setting), `data`, `where`
/// (the query's conditions) or else `channels`, `push_time` and `expiration_time` (ISO 8601, UTC, milliseconds),
/// `expiration_interval` (seconds from `push_time`, which is then now when no `pushDate` is given), and
/// `extraParameters` (`req_id`, `notification_id`, `cql`, …) for the keys it does not already hold.
public enum LCPush {
    /// Sends a push and returns its id (the `objectId` of its record, `GET /1.1/notifications/<id>`).
    /// - Parameters:
    ///   - data: what devices get: `alert`, `badge` (a number or `"Increment"`), `sound`, `category`, custom keys, or
    ///     per-platform `ios` / `android` objects.
    ///   - query: the installations it goes to, a query of `_Installation`; `channels` is then not sent.
    ///   - channels: the channels whose installations it goes to, when there is no `query`. Neither: every installation.
    ///   - pushDate: when to send it (less than a minute away: now).
    ///   - expirationDate: when it stops being sent.
    ///   - expirationInterval: seconds after `pushDate` (or now) when it stops being sent.
    ///   - extraParameters: other keys of the body.
    /// - Throws: `LCError`: ``LCError/InternalErrorCode/inconsistency`` for a query of another class (no request), or
    ///   the server's error (1 when the push is refused).
    public static func send(
        application: LCApplication = .default, data: [String: any LCValueConvertible], query: LCQuery? = nil, channels: [String]? = nil,
        pushDate: Date? = nil, expirationDate: Date? = nil, expirationInterval: TimeInterval? = nil,
        extraParameters: [String: any LCValueConvertible]? = nil
    ) async throws -> String {
        let body = try body(
            application: application, data: data, query: query, channels: channels, pushDate: pushDate, expirationDate: expirationDate,
            expirationInterval: expirationInterval, extraParameters: extraParameters, now: Date()
        )
        return try await post(application, body)
    }

    /// Sends a push; `completion` gets `.success(object:)` with its id, or `.failure(error:)`, on `completionQueue`.
    @discardableResult
    public static func send(
        application: LCApplication = .default, data: [String: any LCValueConvertible], query: LCQuery? = nil, channels: [String]? = nil,
        pushDate: Date? = nil, expirationDate: Date? = nil, expirationInterval: TimeInterval? = nil,
        extraParameters: [String: any LCValueConvertible]? = nil, completionQueue: DispatchQueue = .main,
        completion: @escaping (LCValueResult<String>) -> Void
    ) -> LCRequest {
        let body = Result {
            try self.body(
                application: application, data: data, query: query, channels: channels, pushDate: pushDate, expirationDate: expirationDate,
                expirationInterval: expirationInterval, extraParameters: extraParameters, now: Date()
            )
        }
        return Call.start(on: completionQueue, completion: completion) { try await post(application, body.get()) }
    }

    /// Sends a push and returns its id, blocking the calling thread.
    public static func send(
        application: LCApplication = .default, data: [String: any LCValueConvertible], query: LCQuery? = nil, channels: [String]? = nil,
        pushDate: Date? = nil, expirationDate: Date? = nil, expirationInterval: TimeInterval? = nil,
        extraParameters: [String: any LCValueConvertible]? = nil
    ) -> LCValueResult<String> {
        let body = Result {
            try self.body(
                application: application, data: data, query: query, channels: channels, pushDate: pushDate, expirationDate: expirationDate,
                expirationInterval: expirationInterval, extraParameters: extraParameters, now: Date()
            )
        }
        return Call.wait { try await post(application, body.get()) }
    }

    /// Posts a push's body and returns the id of its record.
    private static func post(_ application: LCApplication, _ body: JSON) async throws -> String {
        let reply = try await RESTClient(application: application).send("POST", "/push", body: body)
        guard let objectId = reply["objectId"]?.stringValue else { throw LCError.malformed("The push reply has no objectId.") }
        return objectId
    }

    /// The body of `POST /push`, the values encoded as in objects (LeanCloud's `PushClient`).
    static func body(
        application: LCApplication, data: [String: any LCValueConvertible], query: LCQuery?, channels: [String]?, pushDate: Date?,
        expirationDate: Date?, expirationInterval: TimeInterval?, extraParameters: [String: any LCValueConvertible]?, now: Date
    ) throws -> JSON {
        var members: [String: JSON] = ["data": encode(data)]
        let environment = application.configuration.environment
        if environment.contains(.pushDevelopment) {
            members["prod"] = "dev"
        } else if environment.contains(.pushProduction) {
            members["prod"] = "prod"
        }
        if let query {
            guard query.className == LCInstallation.objectClassName() else {
                throw LCError.inconsistency("A push's query is a query of _Installation, not of \(query.className).")
            }
            members["where"] = query.whereJSON
        } else if let channels {
            members["channels"] = .array(channels.map(JSON.string))
        }
        if let pushDate { members["push_time"] = .string(LCDate(pushDate).isoString) }
        if let expirationDate { members["expiration_time"] = .string(LCDate(expirationDate).isoString) }
        if let expirationInterval {
            if pushDate == nil { members["push_time"] = .string(LCDate(now).isoString) }
            members["expiration_interval"] = ValueCoder.number(expirationInterval).wire
        }
        for (key, value) in extraParameters ?? [:] where members[key] == nil {
            members[key] = ValueCoder.encode(value.lcValue)
        }
        return .object(members)
    }

    private static func encode(_ data: [String: any LCValueConvertible]) -> JSON {
        .object(data.mapValues { ValueCoder.encode($0.lcValue) })
    }
}
