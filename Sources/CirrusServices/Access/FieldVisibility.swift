public import CirrusModel
public import CirrusStorage

/// Which stored fields a caller may see: applied to every object the services return, included objects too.
///
/// A `_User`'s `authData` is shown to that user and to the master key only (seed 000 L1023). Passwords and
/// session tokens are never in an object's document, so they cannot leak through any read path.
public struct FieldVisibility: Sendable {
    public init() {}

    /// Removes the fields of `object` that `caller` may not see.
    public func redact(_ object: inout StoredObject, for caller: Caller) {
        redact(&object.fields, className: object.className, objectId: object.objectId, for: caller)
    }

    /// Removes the hidden fields from the document of an object of `className`.
    public func redact(_ fields: inout [String: JSON], className: String, objectId: String, for caller: Caller) {
        guard !caller.isMaster, className == "_User", !caller.isUser(objectId) else { return }
        fields.removeValue(forKey: "authData")
    }
}
