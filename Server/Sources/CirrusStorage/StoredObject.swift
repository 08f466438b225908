package import CirrusModel

/// An object as the store holds it: the built-in columns and the document of its other fields.
package struct StoredObject: Sendable, Hashable {
    package var className: String
    package var objectId: String
    package var createdAt: Timestamp
    package var updatedAt: Timestamp
    /// The ACL as stored, or `nil` for an object readable and writable by everyone.
    package var acl: JSON?
    /// Every field but the built-in ones, in the canonical REST encoding. Changing them forgets ``document``.
    package var fields: [String: JSON] {
        didSet { document = nil }
    }
    /// The text the store read ``fields`` from (a JSON object, in the store's own layout), for as long as the fields
    /// are unchanged: a reply can then send it as it is instead of writing the fields again. `nil` once anything
    /// changed them, and for objects not read from a store.
    package private(set) var document: [UInt8]?

    package init(
        className: String, objectId: String, createdAt: Timestamp, updatedAt: Timestamp, acl: JSON?, fields: [String: JSON],
        document: [UInt8]? = nil
    ) {
        self.className = className
        self.objectId = objectId
        self.createdAt = createdAt
        self.updatedAt = updatedAt
        self.acl = acl
        self.fields = fields
        self.document = document
    }

    /// The object without its ``document``, for objects kept longer than a reply.
    package var withoutDocument: StoredObject {
        var object = self
        object.document = nil
        return object
    }

    // Equal objects are equal in their values, whatever text they were read from.
    package static func == (lhs: StoredObject, rhs: StoredObject) -> Bool {
        lhs.className == rhs.className && lhs.objectId == rhs.objectId && lhs.createdAt == rhs.createdAt
            && lhs.updatedAt == rhs.updatedAt && lhs.acl == rhs.acl && lhs.fields == rhs.fields
    }

    package func hash(into hasher: inout Hasher) {
        hasher.combine(className)
        hasher.combine(objectId)
        hasher.combine(createdAt)
        hasher.combine(updatedAt)
        hasher.combine(acl)
        hasher.combine(fields)
    }
}

extension StoredObject {
    /// The object as the model's condition evaluator sees it.
    package var subject: ConditionSubject {
        ConditionSubject(className: className, objectId: objectId, createdAt: createdAt, updatedAt: updatedAt, fields: fields)
    }

    /// Whether one of `principals` (`nil`: the master key) may read or write the object.
    package func grants(_ right: ACL.Right, to principals: [String]?) -> Bool {
        guard let principals else { return true }
        return ACL.grants(right, in: acl, to: principals)
    }
}

extension StoredObject {
    /// The object as LeanCloud's REST API writes it: its fields (stored in that encoding), `objectId`, `createdAt`,
    /// `updatedAt` and, when it has one, `ACL`.
    package var restMembers: [String: JSON] {
        var members = fields
        members["objectId"] = .string(objectId)
        members["createdAt"] = .string(createdAt.iso8601)
        members["updatedAt"] = .string(updatedAt.iso8601)
        if let acl { members["ACL"] = acl }
        return members
    }
}
