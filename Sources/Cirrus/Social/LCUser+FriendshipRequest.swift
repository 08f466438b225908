import CirrusModel

/// Friend requests, made and answered by a user with its own session token, as its follows are.
extension LCUser {
    /// Asks the user with `userId` to be friends: `POST /1.1/users/friendshipRequests {"user": self, "friend",
    /// "friendship": attributes}`. This user now follows the friend, with `friendStatus: false` and `attributes`.
    /// - Returns: the pending request (its `objectId` and `createdAt`, `user`, `friend`, `status`).
    /// - Throws: `LCError`: ``LCError/InternalErrorCode/inconsistency`` for a user not signed up or an empty `userId`
    ///   (no request); the server's 137 while a request of the pair is pending, 211 for an unknown friend.
    public func requestFriendship(with userId: String, attributes: [String: any LCValueConvertible]? = nil) async throws -> LCFriendshipRequest {
        try await requestFriendship(with: userId, attributes: attributes.map { Self.friendshipAttributes($0) })
    }

    /// Accepts a request made to this user: `PUT /1.1/users/friendshipRequests/<id>/accept {"friendship": attributes}`.
    /// The requester's follow becomes a friendship, and this user follows the requester with `attributes` and
    /// `friendStatus: true`. `request`'s `status` becomes `accepted`.
    /// - Parameter request: an ``LCFriendshipRequest`` or any object of `_FriendshipRequest` with its objectId.
    /// - Throws: `LCError`: 403 when the request was not made to this user, 305 when it was answered already.
    public func acceptFriendshipRequest(_ request: LCObject, attributes: [String: any LCValueConvertible]? = nil) async throws {
        try await answerFriendshipRequest(request, "accept", body: Self.acceptBody(attributes))
    }

    /// Declines a request made to this user: `PUT /1.1/users/friendshipRequests/<id>/decline`; the requester still
    /// follows this user. `request`'s `status` becomes `declined`.
    /// - Throws: `LCError`: 403 when the request was not made to this user, 305 when it was answered already.
    public func declineFriendshipRequest(_ request: LCObject) async throws {
        try await answerFriendshipRequest(request, "decline", body: nil)
    }

    /// A query of the pending requests made to this user, newest first, each with its `user` (the requester)
    /// included; the results are ``LCFriendshipRequest``s.
    public func friendshipRequestQuery() -> LCQuery {
        LCFriendshipRequest.registerUnlessRegistered(application: application)
        let query = LCQuery(application: application, className: LCFriendshipRequest.objectClassName())
        query.whereKey("friend", .equalTo(LCUser(application: application, className: Self.objectClassName(), objectId: objectId?.value ?? "")))
        query.whereKey("status", .equalTo("pending"))
        query.whereKey("user", .included)
        query.whereKey("createdAt", .descending)
        return query
    }

    /// Asks `userId` with the attributes already encoded (`nil`: none sent).
    func requestFriendship(with userId: String, attributes: JSON?) async throws -> LCFriendshipRequest {
        guard !userId.isEmpty else { throw LCError.inconsistency("A friend request names the user asked.") }
        guard objectId != nil else { throw LCError.inconsistency("The user has no objectId: sign it up first.") }
        let friend = LCUser(application: application, className: Self.objectClassName(), objectId: userId)
        var body: [String: JSON] = ["user": ValueCoder.encode(self), "friend": ValueCoder.encode(friend)]
        if let attributes { body["friendship"] = attributes }
        let reply = try await RESTClient(application: application).send(
            "POST", "/users/friendshipRequests", body: .object(body), session: sessionForWrites
        )
        let request = LCFriendshipRequest(application: application)
        var members = reply.objectValue ?? [:]
        members["user"] = body["user"]
        members["friend"] = body["friend"]
        members["status"] = "pending"
        request.merge(members, decoder: ObjectDecoder(application: application))
        return request
    }

    /// The body of an accept: `{"friendship": attributes}`, or none without attributes.
    static func acceptBody(_ attributes: [String: any LCValueConvertible]?) -> JSON? {
        attributes.map { ["friendship": friendshipAttributes($0)] }
    }

    /// Accepts or declines `request` with the body already encoded, and records its new status.
    func answerFriendshipRequest(_ request: LCObject, _ answer: String, body: JSON?) async throws {
        guard let id = request.objectId?.value, !id.isEmpty else { throw LCError.inconsistency("The friend request has no objectId.") }
        let path = "/users/friendshipRequests/\(id)/\(answer)"
        let reply = try await RESTClient(application: application).send("PUT", path, body: body, session: sessionForWrites)
        var members = reply.objectValue ?? [:]
        members["status"] = .string(answer == "accept" ? "accepted" : "declined")
        request.merge(members, decoder: ObjectDecoder(application: application))
    }
}
