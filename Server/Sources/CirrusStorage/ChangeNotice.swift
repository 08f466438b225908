/// A change one instance tells the others that share its database about, so that they drop what they cached and
/// pass object changes on to their subscribers.
package enum ChangeNotice: Sendable, Hashable {
    /// A class was created, changed (fields, permissions, options) or dropped.
    case schema(className: String)
    /// Sessions were revoked, roles written or users deleted: cached callers may be wrong.
    case sessions
    /// Objects were created, updated or deleted (live queries build on these).
    case objects(ObjectChange)
    /// Notices may have been missed (the listening connection was lost): drop everything cached.
    case everything
}

/// Objects of one class that a committed write created, updated or deleted. It names them only: whoever needs
/// their contents reads them (a notice between instances must stay small).
package struct ObjectChange: Sendable, Hashable {
    package enum Kind: String, Sendable, Hashable {
        case created
        case updated
        case deleted
    }

    package var kind: Kind
    package var className: String
    package var objectIds: [String]

    package init(kind: Kind, className: String, objectIds: [String]) {
        self.kind = kind
        self.className = className
        self.objectIds = objectIds
    }

    /// The change a committed write made, or `nil` for account writes and deletes that removed nothing.
    package init?(_ command: WriteCommand, result: WriteResult) {
        switch (command, result) {
        case (.insert(let insert), .inserted(let object)):
            self.init(kind: .created, className: insert.object.className, objectIds: [object.objectId])
        case (.update(let update), .updated(let object)):
            self.init(kind: .updated, className: update.className, objectIds: [object.objectId])
        case (.delete(let delete), .deleted(let ids)) where !ids.isEmpty:
            self.init(kind: .deleted, className: delete.className, objectIds: ids)
        default:
            return nil
        }
    }
}
