package import CirrusModel

/// One write, validated by the services and ready for a store to run.
package enum WriteCommand: Sendable {
    case insert(Insert)
    case update(Update)
    case delete(Delete)
    /// A password, lock-out or session change beside the objects.
    case account(AccountWrite)

    /// Create an object.
    package struct Insert: Sendable {
        package var object: StoredObject
        /// Relation members to add, per field.
        package var relations: [(field: String, add: [Pointer])]
        /// Field types not yet recorded for the class; the store records them or refuses a conflict.
        package var newFields: [String: FieldType]
        /// The largest document accepted, in bytes of JSON.
        package var maximumSize: Int
        /// Account writes that belong to the new object (a user's password and first session), run in its
        /// transaction after it is stored.
        package var accountWrites: [AccountWrite]
        /// The `afterSave` the create owes, queued in its transaction.
        package var afterHook: AfterHookRequest?
        /// The class's search fields when in-app search is on for it: the object is indexed in its transaction.
        package var searchFields: [String]?

        package init(
            object: StoredObject, relations: [(field: String, add: [Pointer])], newFields: [String: FieldType], maximumSize: Int,
            accountWrites: [AccountWrite] = []
        ) {
            self.object = object
            self.relations = relations
            self.newFields = newFields
            self.maximumSize = maximumSize
            self.accountWrites = accountWrites
        }
    }

    /// Change an existing object, atomically and only if it satisfies `condition`.
    package struct Update: Sendable {
        package var className: String
        package var objectId: String
        package var updatedAt: Timestamp
        package var changes: ObjectUpdate
        package var condition: Condition?
        package var schema: ClassSchema?
        package var newFields: [String: FieldType]
        package var maximumSize: Int
        /// The ACL principals whose write grant lets the caller change the object; `nil` for the master key.
        package var writers: [String]?
        /// The ACL principals whose read grant lets the caller test `condition` against the object; `nil` for the
        /// master key. An object the caller may not read fails every condition, so a conditional write reveals
        /// nothing of it.
        package var readers: [String]?
        /// Account writes that go with the change (a new password, revoked sessions), run in its transaction after
        /// the object was changed.
        package var accountWrites: [AccountWrite] = []
        /// The `afterUpdate` the update owes, queued in its transaction.
        package var afterHook: AfterHookRequest?

        package init(
            className: String, objectId: String, updatedAt: Timestamp, changes: ObjectUpdate, condition: Condition?,
            schema: ClassSchema?, newFields: [String: FieldType], maximumSize: Int, writers: [String]? = nil
        ) {
            self.className = className
            self.objectId = objectId
            self.updatedAt = updatedAt
            self.changes = changes
            self.condition = condition
            self.schema = schema
            self.newFields = newFields
            self.maximumSize = maximumSize
            self.writers = writers
        }
    }

    /// Delete objects, only those that satisfy `condition`.
    package struct Delete: Sendable {
        package var className: String
        package var objectIds: [String]
        package var condition: Condition?
        package var schema: ClassSchema?
        /// The ACL principals whose write grant lets the caller delete; `nil` for the master key. Listed objects
        /// the caller may not write are left alone (a single one fails with ``StorageError/writeDenied``).
        package var writers: [String]?
        /// The ACL principals whose read grant lets the caller test `condition` against the objects; `nil` for the
        /// master key.
        package var readers: [String]?
        /// The `afterDelete` the delete owes for each object it removes, queued in its transaction.
        package var afterHook: AfterHookRequest?

        package init(
            className: String, objectIds: [String], condition: Condition?, schema: ClassSchema?, writers: [String]? = nil,
            readers: [String]? = nil
        ) {
            self.className = className
            self.objectIds = objectIds
            self.condition = condition
            self.schema = schema
            self.writers = writers
            self.readers = readers
        }
    }
}

/// What a write did.
package enum WriteResult: Sendable {
    case inserted(StoredObject)
    /// The object as stored after the update.
    case updated(StoredObject)
    /// The ids that were deleted.
    case deleted([String])
    /// An account write was applied.
    case account
}

extension WriteCommand {
    /// The class the command writes (`_User` for account writes).
    package var className: String {
        switch self {
        case .insert(let insert): insert.object.className
        case .update(let update): update.className
        case .delete(let delete): delete.className
        case .account: "_User"
        }
    }
}
