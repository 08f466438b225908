package import CirrusModel
package import CirrusServices
package import CirrusStorage

/// Decides a subscription's event for one change record, as LeanCloud and Parse do: the object is "in" the results
/// before (or after) the write when it existed then, the subscriber could read it (the class's find permission and the
/// object's ACL, for the subscriber's user and roles) and it matched the query. In before and after: `update`; after
/// only: `create` for a new object, else `enter`; before only: `leave`, or `delete` for a deleted one.
///
/// The objects in events pass the same field visibility as every read (hidden fields, other users' private fields),
/// carry their ACL only when the subscription asked for it, and only the subscription's `keys` when it has some
/// (``LiveRecord/shown(_:to:for:)``).
package struct LiveMatcher: Sendable {
    let policy: AccessPolicy
    let visibility: FieldVisibility

    package init(policy: AccessPolicy, visibility: FieldVisibility) {
        self.policy = policy
        self.visibility = visibility
    }

    /// The event of `record` for `subscription`, whose subscriber is `caller`; `nil` when it sees nothing of it.
    package func event(for record: ChangeRecord, subscription: LiveSubscription, caller: Caller, schema: ClassSchema?) -> LiveEvent? {
        event(for: LiveRecord(record, schema: schema, visibility: visibility), subscription: subscription, caller: caller)
    }

    /// The event of `record` for `subscription`, whose subscriber is `caller`, its objects shared with the record's
    /// other events that show them alike; `nil` when it sees nothing of it.
    package func event(for record: LiveRecord, subscription: LiveSubscription, caller: Caller) -> LiveEvent? {
        let change = record.change
        guard mayRead(change.className, subscription: subscription, caller: caller, schema: record.schema) else { return nil }
        if change.kind == .classDeleted { return classDeleted(change, subscription: subscription) }
        let readers = caller.readers
        func readable(_ object: StoredObject?) -> Bool {
            object?.grants(.read, to: readers) == true
        }
        func inResults(_ object: StoredObject?) -> Bool {
            guard let object, readable(object) else { return false }
            return subscription.condition.matches(object.subject)
        }
        guard let operation = Self.operation(before: inResults(change.before), after: inResults(change.after), kind: change.kind),
            operation == .delete || operation == .login || watchedFieldChanged(change, subscription)
        else { return nil }
        let keyed = operation == .update || operation == .enter || operation == .leave
        // The object's new state (a leave too, as LeanCloud sends it) where the subscriber may read it; a leave because
        // the object became unreadable shows only the state it could read.
        let image: LiveRecord.Image = readable(change.after) ? .after : .before
        return LiveEvent(
            operation: operation, sequence: change.sequence, subscription: subscription, shown: record.shown(image, to: caller, for: subscription),
            shownOriginal: keyed && readable(change.before) ? record.shown(.before, to: caller, for: subscription) : nil,
            updatedKeys: keyed ? change.updatedKeys : nil
        )
    }

    /// The read gate of a query, now: the class's find permission, and no field the subscription names that the
    /// subscriber may no longer read (a column hidden since it subscribed: the event would tell its value).
    private func mayRead(_ className: String, subscription: LiveSubscription, caller: Caller, schema: ClassSchema?) -> Bool {
        className == subscription.className && (try? policy.check(.find, on: className, schema: schema, caller: caller)) != nil
            && (try? visibility.checkNamed(namedFields(of: subscription), schemaOf: { _ in schema }, for: caller)) != nil
    }

    /// The operation of an object in the results before and after a write of `kind`; `nil` when in neither.
    static func operation(before: Bool, after: Bool, kind: ChangeRecord.Kind) -> LiveEvent.Operation? {
        switch (before, after, kind) {
        case (true, true, _): .update
        case (false, true, .loggedIn): .login
        case (false, true, .created): .create
        case (false, true, _): .enter
        case (true, false, .deleted): .delete
        case (true, false, _): .leave
        case (false, false, _): nil
        }
    }

    /// The fields a subscription names: its condition's, and those it watches.
    func namedFields(of subscription: LiveSubscription) -> [(className: String, field: String)] {
        subscription.condition.fieldsRead(in: subscription.className) + (subscription.watch ?? []).map { (subscription.className, $0) }
    }

    /// Parse's `watch`: whether the write changed one of the watched fields (any write when there are none).
    func watchedFieldChanged(_ record: ChangeRecord, _ subscription: LiveSubscription) -> Bool {
        guard let watch = subscription.watch else { return true }
        return watch.contains { record.before?.fields[$0] != record.after?.fields[$0] }
    }

    /// The class's deletion, for a subscription that follows it; the event's object is the class's name alone.
    func classDeleted(_ record: ChangeRecord, subscription: LiveSubscription) -> LiveEvent? {
        guard subscription.followsClassDeletion else { return nil }
        let epoch = Timestamp(millisecondsSince1970: 0)
        let object = StoredObject(className: record.className, objectId: "", createdAt: epoch, updatedAt: epoch, acl: nil, fields: [:])
        return LiveEvent(operation: .classDeleted, sequence: record.sequence, subscription: subscription, shown: LiveObject(object, showsACL: false))
    }
}
