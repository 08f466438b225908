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
    /// The object as the subscriber may see it: after the write (before it, for a delete), shared with the events of
    /// the same record that show it alike.
    package var shown: LiveObject
    /// The object before the write, as the subscriber may see it (update, enter, leave).
    package var shownOriginal: LiveObject?
    /// The keys the write touched (update, enter, leave).
    package var updatedKeys: [String]?

    package init(
        operation: Operation, sequence: Int64, subscription: LiveSubscription, shown: LiveObject, shownOriginal: LiveObject? = nil,
        updatedKeys: [String]? = nil
    ) {
        self.operation = operation
        self.sequence = sequence
        self.subscription = subscription
        self.shown = shown
        self.shownOriginal = shownOriginal
        self.updatedKeys = updatedKeys
    }

    /// The object shown.
    package var object: StoredObject { shown.value }
    /// The object before the write as shown, if any.
    package var original: StoredObject? { shownOriginal?.value }
}
