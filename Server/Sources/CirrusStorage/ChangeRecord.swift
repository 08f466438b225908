package import CirrusModel

/// One object's committed create, update or delete, as the change log records it: the object before and after the
/// write, and the keys the write touched. LiveQuery builds its events on these (and, later, the after-hooks of cloud
/// code, push and the console's live views).
package struct ChangeRecord: Sendable, Hashable {
    package enum Kind: String, Sendable, Hashable {
        case created
        case updated
        case deleted
        /// A user logged in (``after`` is the user): LiveQuery's `login` event of `_User` subscriptions.
        case loggedIn
        /// The class was deleted (it had no objects left; ``objectId`` is empty): Bmob's `deleteTable`.
        case classDeleted
    }

    /// The record's place in the change log: increasing in commit order, per database. Gaps are possible (on
    /// PostgreSQL, a transaction that failed to commit leaves one).
    package var sequence: Int64
    package var kind: Kind
    package var className: String
    package var objectId: String
    /// The object before the write (`nil` for a create).
    package var before: StoredObject?
    /// The object after the write (`nil` for a delete).
    package var after: StoredObject?
    /// The top-level keys the write set or changed (with `ACL` when it changed the ACL); empty for creates and deletes.
    package var updatedKeys: [String]

    package init(
        sequence: Int64 = 0, kind: Kind, className: String, objectId: String, before: StoredObject?, after: StoredObject?,
        updatedKeys: [String] = []
    ) {
        self.sequence = sequence
        self.kind = kind
        self.className = className
        self.objectId = objectId
        // Records are kept (the change log's history) and fanned out: without the documents' text beside their fields.
        self.before = before?.withoutDocument
        self.after = after?.withoutDocument
        self.updatedKeys = updatedKeys
    }

    /// A create of `object`.
    package static func created(_ object: StoredObject) -> ChangeRecord {
        ChangeRecord(kind: .created, className: object.className, objectId: object.objectId, before: nil, after: object)
    }

    /// An update from `before` to `after`, which touched the top-level keys of `changes`.
    package static func updated(from before: StoredObject, to after: StoredObject, changes: ObjectUpdate) -> ChangeRecord {
        ChangeRecord(
            kind: .updated, className: after.className, objectId: after.objectId, before: before, after: after,
            updatedKeys: updatedKeys(of: changes)
        )
    }

    /// A log-in of `user`.
    package static func loggedIn(_ user: StoredObject) -> ChangeRecord {
        ChangeRecord(kind: .loggedIn, className: user.className, objectId: user.objectId, before: nil, after: user)
    }

    /// The deletion of the class `className`.
    package static func classDeleted(_ className: String) -> ChangeRecord {
        ChangeRecord(kind: .classDeleted, className: className, objectId: "", before: nil, after: nil)
    }

    /// A delete of `object`.
    package static func deleted(_ object: StoredObject) -> ChangeRecord {
        ChangeRecord(kind: .deleted, className: object.className, objectId: object.objectId, before: object, after: nil)
    }

    /// The top-level keys an update touches, sorted, with `ACL` when it sets the ACL (LeanCloud's `updatedKeys`).
    package static func updatedKeys(of changes: ObjectUpdate) -> [String] {
        var keys = Set(changes.operations.map(\.path.root))
        if changes.acl != nil { keys.insert("ACL") }
        return keys.sorted()
    }
}
