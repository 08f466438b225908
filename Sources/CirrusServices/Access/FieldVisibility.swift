public import CirrusModel
public import CirrusStorage

/// Which stored fields a caller may see: applied to every object the services return, included objects too.
///
/// Clients never see a class's hidden fields, and a `_User`'s `authData` is shown to that user and to the master
/// key only (seed 000 L1023). Passwords and session tokens are never in an object's document, so they cannot leak
/// through any read path.
public struct FieldVisibility: Sendable {
    /// What an uploaded file's `url` starts with; the URL is built on each read, so a new domain needs no rewrite.
    public var fileURLBase: String?

    public init(fileURLBase: String? = nil) {
        self.fileURLBase = fileURLBase
    }

    /// Removes the fields of `object` that `caller` may not see, and gives a `_File` row its URL.
    public func redact(_ object: inout StoredObject, schema: ClassSchema?, for caller: Caller) {
        if object.className == "_File", object.fields["url"] == nil, let base = fileURLBase, let key = object.fields["key"]?.stringValue {
            object.fields["url"] = .string(base + "/" + key)
        }
        guard !caller.isMaster else { return }
        for field in schema?.hiddenFields ?? [] { object.fields.removeValue(forKey: field) }
        if object.className == "_User", !caller.isUser(object.objectId) {
            object.fields.removeValue(forKey: "authData")
        }
    }
}
