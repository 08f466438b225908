package import CirrusModel
package import CirrusServices
package import CirrusStorage

/// Decides a subscription's event for one change record, as LeanCloud and Parse do: the object is "in" the results
/// before (or after) the write when it existed then, the subscriber could read it (the class's find permission and the
/// object's ACL, for the subscriber's user and roles) and it matched the query. In before and after: `update`; after
/// only: `create` for a new object, else `enter`; before only: `leave`, or `delete` for a deleted one.
///
/// The objects in events pass the same field visibility as every read (hidden fields, other users' private fields),
/// carry their ACL only when the subscription asked for it, and only the subscription's `keys` when it has some.
package struct LiveMatcher: Sendable {
    let policy: AccessPolicy
    let visibility: FieldVisibility

    package init(policy: AccessPolicy, visibility: FieldVisibility) {
        self.policy = policy
        self.visibility = visibility
    }

    /// The event of `record` for `subscription`, whose subscriber is `caller`; `nil` when it sees nothing of it.
    package func event(for record: ChangeRecord, subscription: LiveSubscription, caller: Caller, schema: ClassSchema?) -> LiveEvent? {
        // The read gate of a query, now: the class's find permission, and no field the condition names that the
        // subscriber may no longer read (a column hidden since it subscribed: the event would tell its value).
        guard record.className == subscription.className,
            (try? policy.check(.find, on: record.className, schema: schema, caller: caller)) != nil,
            (try? visibility.checkNamed(namedFields(of: subscription), schemaOf: { _ in schema }, for: caller)) != nil
        else { return nil }
        if record.kind == .classDeleted { return classDeleted(record, subscription: subscription) }
        func inResults(_ object: StoredObject?) -> StoredObject? {
            guard let object, object.grants(.read, to: caller.readers), subscription.condition.matches(object.subject) else { return nil }
            return object
        }
        let before = inResults(record.before)
        let after = inResults(record.after)
        let operation: LiveEvent.Operation
        switch (before, after, record.kind) {
        case (.some, .some, _): operation = .update
        case (nil, .some, .loggedIn): operation = .login
        case (nil, .some, .created): operation = .create
        case (nil, .some, _): operation = .enter
        case (.some, nil, .deleted): operation = .delete
        case (.some, nil, _): operation = .leave
        case (nil, nil, _): return nil
        }
        guard operation == .delete || operation == .login || watchedFieldChanged(record, subscription) else { return nil }
        let shown = { (object: StoredObject) in self.shown(object, subscription: subscription, caller: caller, schema: schema) }
        let keyed = operation == .update || operation == .enter || operation == .leave
        // The object's new state (a leave too, as LeanCloud sends it) where the subscriber may read it; a leave because
        // the object became unreadable shows only the state it could read.
        let readableAfter = record.after.flatMap { $0.grants(.read, to: caller.readers) ? $0 : nil }
        return LiveEvent(
            operation: operation, sequence: record.sequence, subscription: subscription, object: shown(readableAfter ?? before ?? after!),
            original: keyed ? record.before.flatMap { $0.grants(.read, to: caller.readers) ? shown($0) : nil } : nil,
            updatedKeys: keyed ? record.updatedKeys : nil
        )
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
        return LiveEvent(operation: .classDeleted, sequence: record.sequence, subscription: subscription, object: object)
    }

    /// `object` as the subscriber may see it.
    func shown(_ object: StoredObject, subscription: LiveSubscription, caller: Caller, schema: ClassSchema?) -> StoredObject {
        var object = object
        visibility.redact(&object, schema: schema, for: caller)
        if !subscription.returnACL { object.acl = nil }
        if let selection = subscription.selection { KeyProjection.apply(selection, to: &object.fields) }
        return object
    }
}
