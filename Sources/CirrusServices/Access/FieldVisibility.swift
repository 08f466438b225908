public import CirrusModel
public import CirrusStorage

/// Which stored fields a caller may see: applied to every object the services return, included objects too.
///
/// Clients never see a class's hidden fields, and a `_User`'s `authData` is shown to that user and to the master
/// key only (seed 000 L1023). Passwords and session tokens are never in an object's document, so they cannot leak
/// through any read path.
public struct FieldVisibility: Sendable {
    public init() {}

    /// Removes the fields of `object` that `caller` may not see.
    public func redact(_ object: inout StoredObject, schema: ClassSchema?, for caller: Caller) {
        guard !caller.isMaster else { return }
        for field in schema?.hiddenFields ?? [] { object.fields.removeValue(forKey: field) }
        if object.className == "_User", !caller.isUser(object.objectId) {
            object.fields.removeValue(forKey: "authData")
        }
    }
}
