package import CirrusModel

/// An object as the store holds it: the built-in columns and the document of its other fields.
package struct StoredObject: Sendable, Hashable {
    package var className: String
    package var objectId: String
    package var createdAt: Timestamp
    package var updatedAt: Timestamp
    /// The ACL as stored, or `nil` for an object readable and writable by everyone.
    package var acl: JSON?
    /// Every field but the built-in ones, in the canonical REST encoding.
    package var fields: [String: JSON]

    package init(
        className: String, objectId: String, createdAt: Timestamp, updatedAt: Timestamp, acl: JSON?, fields: [String: JSON]
    ) {
        self.className = className
        self.objectId = objectId
        self.createdAt = createdAt
        self.updatedAt = updatedAt
        self.acl = acl
        self.fields = fields
    }
}
