import CirrusModel

extension LCStatus {
    /// The statuses of an inbox: how many it holds and how many its owner has not read.
    public struct UnreadCount: Sendable, Hashable {
        /// The statuses in the inbox.
        public let total: Int
        /// The statuses delivered since the owner last reset the count (``LCStatus/resetUnreadCount(owner:inboxType:)``).
        public let unread: Int

        public init(total: Int, unread: Int) {
            self.total = total
            self.unread = unread
        }
    }

    /// Sends the status, as the current user, to the inboxes of the objects `query` finds: `POST /1.1/statuses
    /// {"query": {"className", "where", "keys"?}, "data": {…, "source": <current user>}, "inboxType"}`.
    ///
    /// The query's conditions choose the audience, and a key it selects (`query.whereKey("follower", .selected)`)
    /// names a pointer field whose object owns the inbox instead of the object found. The server runs it with the
    /// sender's read rights. The status gets its ``objectId`` and ``createdAt``.
    /// - Throws: `LCError`: ``LCError/InternalErrorCode/inconsistency`` without a current user (no request); the
    ///   server's 403 when `data` names another `source`.
    public func send(to query: LCQuery) async throws {
        var audience: [String: JSON] = ["className": .string(query.className), "where": query.whereJSON]
        if let keys = query.parameters().first(where: { $0.0 == "keys" })?.1 { audience["keys"] = .string(keys) }
        try await send(audience: audience, inboxType: inboxType)
    }

    /// Sends the status to the current user's followers (`{"className": "_Follower", "keys": "follower", "where":
    /// {"user": <current user>}}`), in ``inboxType`` (`default` unless set); a `default` status also reaches the
    /// sender's own inbox.
    /// - Throws: `LCError`: ``LCError/InternalErrorCode/inconsistency`` without a current user (no request).
    public func sendToFollowers() async throws {
        let sender = try currentSender()
        let audience: [String: JSON] = ["className": "_Follower", "keys": "follower", "where": ["user": ValueCoder.encode(sender)]]
        try await send(audience: audience, inboxType: inboxType)
    }

    /// Sends the status as a private message to `user` (`{"className": "_User", "where": {"objectId": <id>}}`) in the
    /// `private` inbox, which the status's ``inboxType`` becomes. Only `user` and the sender read it.
    /// - Parameter user: a user read by a query, or `LCUser(className: "_User", objectId: id)`.
    /// - Throws: `LCError`: ``LCError/InternalErrorCode/inconsistency`` without a current user or for a user without
    ///   an objectId (no request).
    public func sendPrivately(to user: LCUser) async throws {
        guard let userId = user.objectId?.value, !userId.isEmpty else {
            throw LCError.inconsistency("A private status goes to a user with an objectId.")
        }
        try await send(audience: ["className": "_User", "where": ["objectId": .string(userId)]], inboxType: .private)
    }

    /// Deletes the status, as its sender: `DELETE /1.1/statuses/<id>`; it leaves every inbox.
    /// - Throws: `LCError`: ``LCError/InternalErrorCode/inconsistency`` for a status without an id (no request); the
    ///   server's 403 when the current user did not send it, and its not-found error (HTTP 404) when it does not exist.
    public func delete() async throws {
        guard let id = objectId?.value, !id.isEmpty else { throw LCError.inconsistency("The status has no objectId.") }
        _ = try await RESTClient(application: application).send("DELETE", "/statuses/" + id)
    }

    /// How many statuses `owner`'s inbox of `inboxType` holds, and how many are unread: `GET
    /// /1.1/subscribe/statuses/count?owner=<pointer>&inboxType=`.
    ///
    /// An inbox is its owner's: the request carries `owner`'s own session token (the current user's when it has none).
    /// - Throws: `LCError`: 403 when the session is not `owner`'s.
    public static func unreadCount(owner: LCUser, inboxType: InboxType = .default) async throws -> UnreadCount {
        let reply = try await RESTClient(application: owner.application).send(
            "GET", "/subscribe/statuses/count", query: try inboxParameters(owner, inboxType), session: owner.sessionForRequests
        )
        guard let total = reply["total"]?.intValue, let unread = reply["unread"]?.intValue else {
            throw LCError.malformed("The count reply has no total or unread.")
        }
        return UnreadCount(total: Int(total), unread: Int(unread))
    }

    /// Marks every status of `owner`'s inbox of `inboxType` read: `POST /1.1/subscribe/statuses/resetUnreadCount
    /// {"owner": <pointer>, "inboxType"}`, with `owner`'s own session token (the current user's when it has none).
    /// - Throws: `LCError`: 403 when the session is not `owner`'s.
    public static func resetUnreadCount(owner: LCUser, inboxType: InboxType = .default) async throws {
        let body: JSON = ["owner": try ownerPointer(owner), "inboxType": .string(inboxType.rawValue)]
        _ = try await RESTClient(application: owner.application).send(
            "POST", "/subscribe/statuses/resetUnreadCount", body: body, session: owner.sessionForRequests
        )
    }

    /// Posts the status with its audience (its `source` the sender unless it names one) and records its id.
    private func send(audience: [String: JSON], inboxType: InboxType) async throws {
        let sender = try currentSender()
        if get("source") == nil { set("source", value: sender) }
        let members = data.value.mapValues(ValueCoder.encode)
        let body: JSON = ["query": .object(audience), "data": .object(members), "inboxType": .string(inboxType.rawValue)]
        let reply = try await RESTClient(application: application).send("POST", "/statuses", body: body)
        didSend(reply, inboxType: inboxType)
    }

    /// The current user, who sends statuses.
    private func currentSender() throws -> LCUser {
        guard let user = application.currentUser, user.objectId != nil else {
            throw LCError.inconsistency("A status is sent by a user: log in first.")
        }
        return user
    }

    /// `owner` as a pointer.
    static func ownerPointer(_ owner: LCUser) throws -> JSON {
        guard owner.objectId != nil else { throw LCError.inconsistency("The inbox's owner has no objectId.") }
        return ValueCoder.encode(owner)
    }

    /// `owner` (its pointer as JSON) and `inboxType`, as an inbox request's query parameters.
    static func inboxParameters(_ owner: LCUser, _ inboxType: InboxType) throws -> [(String, String)] {
        [("owner", JSONWriter.string(try ownerPointer(owner))), ("inboxType", inboxType.rawValue)]
    }
}
