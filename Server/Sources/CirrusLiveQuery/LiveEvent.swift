package import CirrusStorage

/// What a subscriber is told of a committed change: the object entered, left, changed within, was created in or deleted
/// from the results of its query (the events of LeanCloud's and Parse's LiveQuery), or, for `_User`, logged in.
package struct LiveEvent: Sendable {
    package enum Operation: String, Sendable {
        case create, update, enter, leave, delete, login
        /// The class was deleted (only for subscriptions that follow it: Bmob's `deleteTable`).
        case classDeleted
    }

    package var operation: Operation
    /// The change record's sequence: where a client that loses its connection after this event resumes.
    package var sequence: Int64
    package var subscription: LiveSubscription
    /// The object as the subscriber may see it: after the write (before it, for a delete).
    package var object: StoredObject
    /// The object before the write, as the subscriber may see it (update, enter, leave).
    package var original: StoredObject?
    /// The keys the write touched (update, enter, leave).
    package var updatedKeys: [String]?
}
