public import Foundation

// The completion-handler and blocking forms of LCStatus's calls.
extension LCStatus {
    /// Sends the status to the inboxes of the objects `query` finds; `completion` gets the result on `completionQueue`.
    @discardableResult
    public func send(to query: LCQuery, completionQueue: DispatchQueue = .main, completion: @escaping (LCBooleanResult) -> Void) -> LCRequest {
        Call.start(on: completionQueue, completion: completion) { try await self.send(to: query) }
    }

    /// Sends the status to the inboxes of the objects `query` finds, blocking the calling thread.
    @discardableResult
    public func send(to query: LCQuery) -> LCBooleanResult {
        Call.wait { try await self.send(to: query) }
    }

    /// Sends the status to the current user's followers; `completion` gets the result on `completionQueue`.
    @discardableResult
    public func sendToFollowers(completionQueue: DispatchQueue = .main, completion: @escaping (LCBooleanResult) -> Void) -> LCRequest {
        Call.start(on: completionQueue, completion: completion) { try await self.sendToFollowers() }
    }

    /// Sends the status to the current user's followers, blocking the calling thread.
    @discardableResult
    public func sendToFollowers() -> LCBooleanResult {
        Call.wait { try await self.sendToFollowers() }
    }

    /// Sends the status as a private message to `user`; `completion` gets the result on `completionQueue`.
    @discardableResult
    public func sendPrivately(to user: LCUser, completionQueue: DispatchQueue = .main, completion: @escaping (LCBooleanResult) -> Void) -> LCRequest {
        Call.start(on: completionQueue, completion: completion) { try await self.sendPrivately(to: user) }
    }

    /// Sends the status as a private message to `user`, blocking the calling thread.
    @discardableResult
    public func sendPrivately(to user: LCUser) -> LCBooleanResult {
        Call.wait { try await self.sendPrivately(to: user) }
    }

    /// Deletes the status; `completion` gets the result on `completionQueue`.
    @discardableResult
    public func delete(completionQueue: DispatchQueue = .main, completion: @escaping (LCBooleanResult) -> Void) -> LCRequest {
        Call.start(on: completionQueue, completion: completion) { try await self.delete() }
    }

    /// Deletes the status, blocking the calling thread.
    @discardableResult
    public func delete() -> LCBooleanResult {
        Call.wait { try await self.delete() }
    }

    /// Counts the statuses of `owner`'s inbox; `completion` gets `.success(object:)` with the counts, or
    /// `.failure(error:)`, on `completionQueue`.
    @discardableResult
    public static func unreadCount(
        owner: LCUser, inboxType: InboxType = .default, completionQueue: DispatchQueue = .main,
        completion: @escaping (LCValueResult<UnreadCount>) -> Void
    ) -> LCRequest {
        Call.start(on: completionQueue, completion: completion) { try await unreadCount(owner: owner, inboxType: inboxType) }
    }

    /// Counts the statuses of `owner`'s inbox, blocking the calling thread.
    public static func unreadCount(owner: LCUser, inboxType: InboxType = .default) -> LCValueResult<UnreadCount> {
        Call.wait { try await unreadCount(owner: owner, inboxType: inboxType) }
    }

    /// Marks `owner`'s inbox read; `completion` gets the result on `completionQueue`.
    @discardableResult
    public static func resetUnreadCount(
        owner: LCUser, inboxType: InboxType = .default, completionQueue: DispatchQueue = .main, completion: @escaping (LCBooleanResult) -> Void
    ) -> LCRequest {
        Call.start(on: completionQueue, completion: completion) { try await resetUnreadCount(owner: owner, inboxType: inboxType) }
    }

    /// Marks `owner`'s inbox read, blocking the calling thread.
    @discardableResult
    public static func resetUnreadCount(owner: LCUser, inboxType: InboxType = .default) -> LCBooleanResult {
        Call.wait { try await resetUnreadCount(owner: owner, inboxType: inboxType) }
    }
}
