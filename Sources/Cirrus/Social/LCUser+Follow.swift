import CirrusModel

/// The follow graph of LeanCloud's in-app social features (docs/SOCIAL.md): a user follows another, with attributes of
/// its own on the follow, and reads who follows whom from `_Follower` and `_Followee`.
///
/// ```swift
/// try await me.follow(starId, attributes: ["group": "music"])   // POST /1.1/users/<me>/friendship/<star>
/// let fans = try await LCUser.followerQuery(userId: starId).find()
/// fans.first?.get("follower")                                    // the follower, an LCUser with its fields
/// try await me.unfollow(starId)                                  // DELETE …; 221 when there is no follow
/// ```
/// A follow is a change of the follower, so, like saves, it carries the follower's own session token (a user read by a
/// query, without one, is refused by the server).
extension LCUser {
    /// Follows the user with `userId`: `POST /1.1/users/<id>/friendship/<userId>` with `attributes` as the body (or
    /// `{}`). The server writes the pair `_Followee {user: self, followee}` and `_Follower {user: followee, follower:
    /// self}`, both carrying `attributes`; following again replaces them.
    /// - Parameter attributes: fields of the follow (`group`, `score`, …), which the follower and followee queries can
    ///   filter on; `user`, `follower`, `followee`, `friendStatus` and keys starting with `_` are the server's (105).
    /// - Throws: `LCError`: ``LCError/InternalErrorCode/inconsistency`` for a user not signed up or an empty `userId`
    ///   (no request); the server's 211 for an unknown user, 400 for following oneself.
    public func follow(_ userId: String, attributes: [String: any LCValueConvertible]? = nil) async throws {
        try await follow(userId, body: Self.friendshipAttributes(attributes))
    }

    /// Stops following the user with `userId`: `DELETE /1.1/users/<id>/friendship/<userId>` removes both rows.
    /// - Throws: `LCError` 221 when this user does not follow that one.
    public func unfollow(_ userId: String) async throws {
        _ = try await RESTClient(application: application).send("DELETE", try friendshipPath(userId), session: sessionForWrites)
    }

    /// A query of the followers of the user with `userId`: `_Follower` rows whose `user` is that user, each with its
    /// `follower` included (an ``LCUser`` with its fields) and the follow's attributes.
    public static func followerQuery(application: LCApplication = .default, userId: String) -> LCQuery {
        graphQuery(application, "_Follower", userId: userId, included: "follower")
    }

    /// A query of the users the user with `userId` follows: `_Followee` rows whose `user` is that user, each with its
    /// `followee` included and the follow's attributes.
    public static func followeeQuery(application: LCApplication = .default, userId: String) -> LCQuery {
        graphQuery(application, "_Followee", userId: userId, included: "followee")
    }

    /// ``followerQuery(application:userId:)`` of this user.
    public func followerQuery() -> LCQuery {
        Self.followerQuery(application: application, userId: objectId?.value ?? "")
    }

    /// ``followeeQuery(application:userId:)`` of this user.
    public func followeeQuery() -> LCQuery {
        Self.followeeQuery(application: application, userId: objectId?.value ?? "")
    }

    /// A query of this user's friends: its `_Followee` rows with `friendStatus` true (an accepted friend request), each
    /// with its `followee` included.
    public func friendshipQuery() -> LCQuery {
        let query = followeeQuery()
        query.whereKey("friendStatus", .equalTo(true))
        return query
    }

    /// Follows `userId` with a body already encoded.
    func follow(_ userId: String, body: JSON) async throws {
        _ = try await RESTClient(application: application).send("POST", try friendshipPath(userId), body: body, session: sessionForWrites)
    }

    /// `/users/<id>/friendship/<userId>`.
    private func friendshipPath(_ userId: String) throws -> String {
        guard !userId.isEmpty else { throw LCError.inconsistency("A follow names the user to follow.") }
        return try BatchRequest.requirePath(self) + "/friendship/" + userId
    }

    /// The attributes of a follow or a friendship as a JSON object (`{}` for none).
    static func friendshipAttributes(_ attributes: [String: any LCValueConvertible]?) -> JSON {
        .object((attributes ?? [:]).mapValues { ValueCoder.encode($0.lcValue) })
    }

    private static func graphQuery(_ application: LCApplication, _ className: String, userId: String, included: String) -> LCQuery {
        let query = LCQuery(application: application, className: className)
        query.whereKey("user", .equalTo(LCUser(application: application, className: objectClassName(), objectId: userId)))
        query.whereKey(included, .included)
        return query
    }
}
