import CirrusModel
public import Foundation

/// A query of a user's inbox of statuses, newest first: `GET /1.1/subscribe/statuses?owner=<pointer>&inboxType=
/// &sinceId=&maxId=&where=&limit=`.
///
/// ```swift
/// let query = LCInboxQuery(owner: me)                  // the `default` inbox
/// query.whereKey("source", .included)                  // the senders with their fields
/// let page = try await query.find()                    // LCStatuses with their messageId, largest first
/// query.sinceId = page.first?.messageId ?? 0           // later: only what arrived since
/// ```
/// Conditions (`whereKey`) filter the statuses as an ``LCQuery`` of `_Status` would; `.included` and `.selected` keys
/// are sent as `include` and `keys`; orderings are not (an inbox is read newest first). The request carries `owner`'s
/// own session token (the current user's when it has none): an inbox is read by its owner alone.
///
/// To read older statuses, set ``maxId`` to the smallest `messageId` read minus one, until a page comes back empty.
public final class LCInboxQuery: @unchecked Sendable {
    /// The app of the inbox.
    public let application: LCApplication
    /// The inbox's owner.
    public let owner: LCUser

    private let lock = Lock()
    private let statuses: LCQuery
    private var type: LCStatus.InboxType
    private var sinceMessage = 0
    private var maxMessage = 0
    private var count: Int?
    private var reachedEnd = false

    /// A query of `owner`'s inbox of `inboxType`.
    public init(owner: LCUser, inboxType: LCStatus.InboxType = .default) {
        application = owner.application
        self.owner = owner
        statuses = LCQuery(application: owner.application, className: "_Status")
        type = inboxType
    }

    /// The inbox queried: ``LCStatus/InboxType/default`` unless set.
    public var inboxType: LCStatus.InboxType {
        get { lock.withLock { type } }
        set { lock.withLock { type = newValue } }
    }

    /// Only statuses whose `messageId` is above this one (0, the default: from the oldest).
    public var sinceId: Int {
        get { lock.withLock { sinceMessage } }
        set { lock.withLock { sinceMessage = newValue } }
    }

    /// Only statuses whose `messageId` is at most this one (0, the default: up to the newest).
    public var maxId: Int {
        get { lock.withLock { maxMessage } }
        set { lock.withLock { maxMessage = newValue } }
    }

    /// The most statuses a find returns (the server's default and maximum are 100).
    public var limit: Int? {
        get { lock.withLock { count } }
        set { lock.withLock { count = newValue } }
    }

    /// Whether the last find's page held the inbox's oldest status (the server answers `false` for an empty page).
    public var end: Bool { lock.withLock { reachedEnd } }

    /// Adds a condition on the statuses' field `key`, or a key to include (`.included`) or return (`.selected`), as
    /// ``LCQuery/whereKey(_:_:)`` does.
    public func whereKey(_ key: String, _ constraint: LCQuery.Constraint) {
        statuses.whereKey(key, constraint)
    }

    /// The statuses of the inbox that match, newest first, each with its ``LCStatus/messageId`` and ``LCStatus/inboxType``.
    /// - Throws: `LCError`: ``LCError/InternalErrorCode/inconsistency`` for an owner without an objectId (no
    ///   request); the server's 403 when the session is not the owner's.
    public func find() async throws -> [LCStatus] {
        let reply = try await RESTClient(application: application).send(
            "GET", "/subscribe/statuses", query: try parameters(), session: owner.sessionForRequests
        )
        guard let results = reply["results"]?.arrayValue else { throw LCError.malformed("The inbox reply has no results.") }
        lock.withLock { reachedEnd = reply["end"]?.boolValue ?? false }
        return results.map { LCStatus(application: application, inboxResult: $0.objectValue ?? [:]) }
    }

    /// Finds the inbox's statuses; `completion` gets `.success(objects:)` or `.failure(error:)` on `completionQueue`.
    @discardableResult
    public func find(completionQueue: DispatchQueue = .main, completion: @escaping (LCQueryResult<LCStatus>) -> Void) -> LCRequest {
        Call.start(on: completionQueue, completion: completion) { try await self.find() }
    }

    /// Finds the inbox's statuses, blocking the calling thread.
    public func find() -> LCQueryResult<LCStatus> {
        Call.wait { try await self.find() }
    }

    /// The query parameters of a find: `owner`, `inboxType`, `sinceId`, `maxId` and `where` always (as LeanCloud's
    /// SDKs send them), then `limit`, `include` and `keys` when set.
    func parameters() throws -> [(String, String)] {
        let options = lock.withLock { (type: type, since: sinceMessage, max: maxMessage, limit: count) }
        var parameters = try LCStatus.inboxParameters(owner, options.type)
        parameters += [("sinceId", String(options.since)), ("maxId", String(options.max)), ("where", statuses.whereText)]
        if let limit = options.limit { parameters.append(("limit", String(limit))) }
        parameters += statuses.parameters().filter { $0.0 == "include" || $0.0 == "keys" }
        return parameters
    }
}
