public import CirrusModel

/// An object as the store holds it: the built-in columns and the document of its other fields.
public struct StoredObject: Sendable, Hashable {
    public var className: String
    public var objectId: String
    public var createdAt: Timestamp
    public var updatedAt: Timestamp
    /// The ACL as stored, or `nil` for an object readable and writable by everyone.
    public var acl: JSON?
    /// Every field but the built-in ones, in the canonical REST encoding.
    public var fields: [String: JSON]

    public init(
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
