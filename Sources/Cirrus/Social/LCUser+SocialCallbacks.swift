public import Foundation

// The completion-handler and blocking forms of LCUser's follows and friend requests.
extension LCUser {
    /// Follows the user with `userId`; `completion` gets the result on `completionQueue`.
    @discardableResult
    public func follow(
        _ userId: String, attributes: [String: any LCValueConvertible]? = nil, completionQueue: DispatchQueue = .main,
        completion: @escaping (LCBooleanResult) -> Void
    ) -> LCRequest {
        let body = Self.friendshipAttributes(attributes)
        return Call.start(on: completionQueue, completion: completion) { try await self.follow(userId, body: body) }
    }

    /// Follows the user with `userId`, blocking the calling thread.
    @discardableResult
    public func follow(_ userId: String, attributes: [String: any LCValueConvertible]? = nil) -> LCBooleanResult {
        let body = Self.friendshipAttributes(attributes)
        return Call.wait { try await self.follow(userId, body: body) }
    }

    /// Stops following the user with `userId`; `completion` gets the result on `completionQueue`.
    @discardableResult
    public func unfollow(_ userId: String, completionQueue: DispatchQueue = .main, completion: @escaping (LCBooleanResult) -> Void) -> LCRequest {
        Call.start(on: completionQueue, completion: completion) { try await self.unfollow(userId) }
    }

    /// Stops following the user with `userId`, blocking the calling thread.
    @discardableResult
    public func unfollow(_ userId: String) -> LCBooleanResult {
        Call.wait { try await self.unfollow(userId) }
    }

    /// Asks the user with `userId` to be friends; `completion` gets `.success(object:)` with the request, or
    /// `.failure(error:)`, on `completionQueue`.
    @discardableResult
    public func requestFriendship(
        with userId: String, attributes: [String: any LCValueConvertible]? = nil, completionQueue: DispatchQueue = .main,
        completion: @escaping (LCValueResult<LCFriendshipRequest>) -> Void
    ) -> LCRequest {
        let encoded = attributes.map { Self.friendshipAttributes($0) }
        return Call.start(on: completionQueue, completion: completion) { try await self.requestFriendship(with: userId, attributes: encoded) }
    }

    /// Asks the user with `userId` to be friends, blocking the calling thread.
    public func requestFriendship(with userId: String, attributes: [String: any LCValueConvertible]? = nil) -> LCValueResult<LCFriendshipRequest> {
        let encoded = attributes.map { Self.friendshipAttributes($0) }
        return Call.wait { try await self.requestFriendship(with: userId, attributes: encoded) }
    }

    /// Accepts a friend request made to this user; `completion` gets the result on `completionQueue`.
    @discardableResult
    public func acceptFriendshipRequest(
        _ request: LCObject, attributes: [String: any LCValueConvertible]? = nil, completionQueue: DispatchQueue = .main,
        completion: @escaping (LCBooleanResult) -> Void
    ) -> LCRequest {
        let body = Self.acceptBody(attributes)
        return Call.start(on: completionQueue, completion: completion) { try await self.answerFriendshipRequest(request, "accept", body: body) }
    }

    /// Accepts a friend request made to this user, blocking the calling thread.
    @discardableResult
    public func acceptFriendshipRequest(_ request: LCObject, attributes: [String: any LCValueConvertible]? = nil) -> LCBooleanResult {
        let body = Self.acceptBody(attributes)
        return Call.wait { try await self.answerFriendshipRequest(request, "accept", body: body) }
    }

    /// Declines a friend request made to this user; `completion` gets the result on `completionQueue`.
    @discardableResult
    public func declineFriendshipRequest(
        _ request: LCObject, completionQueue: DispatchQueue = .main, completion: @escaping (LCBooleanResult) -> Void
    ) -> LCRequest {
        Call.start(on: completionQueue, completion: completion) { try await self.declineFriendshipRequest(request) }
    }

    /// Declines a friend request made to this user, blocking the calling thread.
    @discardableResult
    public func declineFriendshipRequest(_ request: LCObject) -> LCBooleanResult {
        Call.wait { try await self.declineFriendshipRequest(request) }
    }
}
