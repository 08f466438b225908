package import CirrusModel
package import CirrusStorage

/// LeanCloud's friend requests (`_FriendshipRequest{user, friend, status}`): `user` asks `friend`, which accepts or
/// declines. Asking makes the requester follow the friend with `friendStatus: false`; accepting marks that follow a
/// friendship and adds the friend's follow back, both `friendStatus: true`. Friends are then the followees with
/// `friendStatus: true`. A request is readable and deletable by its two users (its ACL), and changed only here.
package struct FriendRequestService: Sendable {
    let objects: ObjectService
    let friendships: FriendshipService

    package init(objects: ObjectService, friendships: FriendshipService) {
        self.objects = objects
        self.friendships = friendships
    }

    static let className = "_FriendshipRequest"

    /// `POST /users/friendshipRequests {"user","friend","friendship"?}`: the caller (`user`) asks `friend`.
    /// - Throws: ``APIError``: ``APIError/Reason/sessionRequired`` without a user, ``APIError/Reason/forbidden`` when
    ///   `user` is another user, ``APIError/Reason/userNotFound`` for an unknown friend, ``APIError/Reason/duplicateValue``
    ///   while an earlier request of the pair is pending.
    package func ask(_ body: JSON, caller: Caller) async throws -> StoredObject {
        guard case .object(let members) = body else { throw APIError(.invalidJSON, "A friend request is a JSON object.") }
        let userId = try Self.pointedUser(members["user"], key: "user") ?? caller.userId ?? ""
        guard !userId.isEmpty else { throw APIError(.sessionRequired, "A friend request is sent with the requester's session.") }
        _ = try friendships.subject(userId, caller: caller)
        guard let friendId = try Self.pointedUser(members["friend"], key: "friend") else {
            throw APIError(.missingRequiredField, "A friend request names its 'friend', a _User pointer.")
        }
        let attributes = try FriendshipService.attributes(members["friendship"] ?? .null)
        if try await !pending(from: userId, to: friendId).isEmpty {
            throw APIError(.duplicateValue, "A friend request from \(userId) to \(friendId) is pending.")
        }
        try await friendships.follow(userId, target: friendId, attributes: attributes, friendStatus: false)
        let both: JSON = ["read": true, "write": true]
        let request: JSON = .object([
            "user": FriendshipService.user(userId), "friend": FriendshipService.user(friendId), "status": "pending",
            "ACL": .object([userId: both, friendId: both]),
        ])
        return try await objects.create(Self.className, body: request, options: WriteOptions(), caller: .master)
    }

    /// `PUT /users/friendshipRequests/<id>/accept {"friendship"?}`: the friend accepts; both now follow each other
    /// as friends.
    package func accept(_ requestId: String, body: JSON, caller: Caller) async throws -> StoredObject {
        let attributes = try FriendshipService.attributes(Self.friendship(body))
        let (request, userId, friendId) = try await answer(requestId, with: "accepted", caller: caller)
        try await friendships.follow(userId, target: friendId, attributes: [:], friendStatus: true)
        try await friendships.follow(friendId, target: userId, attributes: attributes, friendStatus: true)
        return request
    }

    /// `PUT /users/friendshipRequests/<id>/decline`: the friend declines (the requester still follows it).
    package func decline(_ requestId: String, caller: Caller) async throws -> StoredObject {
        try await answer(requestId, with: "declined", caller: caller).request
    }

    /// Moves a pending request to `status`, once: the update is conditional on `pending`, so of two answers racing
    /// one wins and the other is refused (305).
    private func answer(_ requestId: String, with status: String, caller: Caller) async throws -> (request: StoredObject, user: String, friend: String) {
        guard let stored = try await objects.store.fetch(className: Self.className, ids: [requestId]).first,
            let userId = Self.userId(of: stored.fields["user"]), let friendId = Self.userId(of: stored.fields["friend"])
        else { throw APIError(.objectNotFound, "No friend request \(requestId).") }
        guard caller.isMaster || caller.userId == friendId else {
            throw APIError(.forbidden, "Only the user asked answers a friend request.")
        }
        guard stored.fields["status"] == .string("pending") else {
            throw APIError(.conditionNotMatched, "The friend request was answered already.")
        }
        let outcome = try await objects.update(
            Self.className, objectId: requestId, body: ["status": .string(status)],
            condition: .compare(FieldPath(field: "status"), .equal, .string("pending")), options: WriteOptions(), caller: .master
        )
        return (outcome.object, userId, friendId)
    }

    /// The pending requests from `userId` to `friendId`.
    private func pending(from userId: String, to friendId: String) async throws -> [StoredObject] {
        try await friendships.find(Self.className, user: userId, otherKey: "friend", other: friendId).filter {
            $0.fields["status"] == .string("pending")
        }
    }

    /// The `friendship` attributes of an accept's body (which may be empty).
    static func friendship(_ body: JSON) -> JSON {
        if case .object(let members) = body { return members["friendship"] ?? .null }
        return .null
    }

    /// The user id of a `_User` pointer (or of a bare id), `nil` when absent.
    static func pointedUser(_ value: JSON?, key: String) throws(APIError) -> String? {
        guard let value, value != .null else { return nil }
        if case .string(let id) = value, !id.isEmpty { return id }
        guard let id = userId(of: value) else { throw APIError(.invalidPointer, "'\(key)' must be a _User pointer.") }
        return id
    }

    /// The user id of a `_User` pointer, `nil` for anything else.
    static func userId(of value: JSON?) -> String? {
        guard let pointer = pointer(value), pointer.className == "_User" else { return nil }
        return pointer.objectId
    }

    /// A pointer in its wire form, `nil` for anything else.
    static func pointer(_ value: JSON?) -> Pointer? {
        guard let value, case .pointer(let pointer)? = try? Value(wire: value) else { return nil }
        return pointer
    }
}
