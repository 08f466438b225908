public import CirrusModel

/// One write, validated by the services and ready for a store to run.
public enum WriteCommand: Sendable {
    case insert(Insert)
    case update(Update)
    case delete(Delete)

    /// Create an object.
    public struct Insert: Sendable {
        public var object: StoredObject
        /// Relation members to add, per field.
        public var relations: [(field: String, add: [Pointer])]
        /// Field types not yet recorded for the class; the store records them or refuses a conflict.
        public var newFields: [String: FieldType]
        /// The largest document accepted, in bytes of JSON.
        public var maximumSize: Int

        public init(object: StoredObject, relations: [(field: String, add: [Pointer])], newFields: [String: FieldType], maximumSize: Int) {
            self.object = object
            self.relations = relations
            self.newFields = newFields
            self.maximumSize = maximumSize
        }
    }

    /// Change an existing object, atomically and only if it satisfies `condition`.
    public struct Update: Sendable {
        public var className: String
        public var objectId: String
        public var updatedAt: Timestamp
        public var changes: ObjectUpdate
        public var condition: Condition?
        public var schema: ClassSchema?
        public var newFields: [String: FieldType]
        public var maximumSize: Int

        public init(
            className: String, objectId: String, updatedAt: Timestamp, changes: ObjectUpdate, condition: Condition?,
            schema: ClassSchema?, newFields: [String: FieldType], maximumSize: Int
        ) {
            self.className = className
            self.objectId = objectId
            self.updatedAt = updatedAt
            self.changes = changes
            self.condition = condition
            self.schema = schema
            self.newFields = newFields
            self.maximumSize = maximumSize
        }
    }

    /// Delete objects, only those that satisfy `condition`.
    public struct Delete: Sendable {
        public var className: String
        public var objectIds: [String]
        public var condition: Condition?
        public var schema: ClassSchema?

        public init(className: String, objectIds: [String], condition: Condition?, schema: ClassSchema?) {
            self.className = className
            self.objectIds = objectIds
            self.condition = condition
            self.schema = schema
        }
    }
}

/// What a write did.
public enum WriteResult: Sendable {
    case inserted(StoredObject)
    /// The object as stored after the update.
    case updated(StoredObject)
    /// The ids that were deleted.
    case deleted([String])
}
