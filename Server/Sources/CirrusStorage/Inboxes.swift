/// Whose inbox: LeanCloud's `owner`, a pointer (usually to a `_User`).
package struct InboxOwner: Sendable, Hashable, Comparable {
    package var className: String
    package var objectId: String

    package init(className: String, objectId: String) {
        self.className = className
        self.objectId = objectId
    }

    package static func < (lhs: InboxOwner, rhs: InboxOwner) -> Bool {
        (lhs.className, lhs.objectId) < (rhs.className, rhs.objectId)
    }
}

/// One inbox: an owner's inbox of one type (`default`, `private`, or the app's own).
package struct InboxKey: Sendable, Hashable {
    /// The class of the statuses inboxes hold.
    package static let statusClass = "_Status"

    package var owner: InboxOwner
    package var type: String

    package init(owner: InboxOwner, type: String) {
        self.owner = owner
        self.type = type
    }
}

/// A status in an inbox: its number there (LeanCloud's `messageId`, increasing per inbox in the order of delivery)
/// and whether the owner has read it.
package struct InboxEntry: Sendable, Hashable {
    package var messageId: Int64
    package var statusId: String
    package var unread: Bool

    package init(messageId: Int64, statusId: String, unread: Bool) {
        self.messageId = messageId
        self.statusId = statusId
        self.unread = unread
    }
}

/// The statuses' inboxes (LeanCloud's status system): each delivery gives the status the next number of each inbox
/// it reaches, numbers of one inbox are handed out one delivery at a time (a later commit never gets a smaller one),
/// and a status deleted (a delete of `_Status` objects, by whatever path) leaves every inbox in the delete's
/// transaction.
package protocol InboxStorage: Sendable {
    /// Appends the status to the inboxes of `owners` (of type `type`), in one transaction.
    func deliver(statusId: String, to owners: [InboxOwner], type: String) async throws

    /// Up to `limit` entries of the inbox, newest first: numbers above `sinceId` and, when `maxId` is above 0, at most
    /// `maxId`.
    func inbox(_ inbox: InboxKey, sinceId: Int64, maxId: Int64, limit: Int) async throws -> [InboxEntry]

    /// How many statuses the inbox holds, and how many of them are unread.
    func inboxCount(_ inbox: InboxKey) async throws -> (total: Int, unread: Int)

    /// Marks every status of the inbox read.
    func markInboxRead(_ inbox: InboxKey) async throws

    /// Removes one entry; whether there was one.
    func removeInboxEntry(_ inbox: InboxKey, messageId: Int64) async throws -> Bool
}
