package import CirrusModel
package import CirrusStorage

/// Which fields a caller may read: the one field-level gate of every path that returns or compares data.
///
/// - Every object a service returns, included objects, write replies (`fetchWhenSave`) and batch replies too, goes
///   through ``redact(_:schema:for:)`` (write replies through ``redactWritten(_:schema:for:)``, which also applies
///   the ACL's read right): clients never see a class's hidden fields, and the personal fields of a
///   `_User` (`email`, `mobilePhoneNumber`, `authData`; see ``ClassSchema/privateFields(of:schema:)``) are shown to
///   that user and to the master key only.
/// - Every field a client names to compare, sort, group, aggregate or select on — in a query's `where` and its
///   sub-queries, `$relatedTo`, `order`, statistics, CQL/BQL, and the `where` of a conditional write — goes through
///   ``checkNamed(_:schemaOf:for:)``: a field the caller could not read on every object may not be named at all, or
///   the answer (or the success of a conditional write) would reveal it.
///
/// Passwords and session tokens are never in an object's document, so they cannot leak through any read path.
package struct FieldVisibility: Sendable {
    /// What an uploaded file's `url` starts with; the URL is built on each read, so a new domain needs no rewrite.
    package var fileURLBase: String?

    package init(fileURLBase: String? = nil) {
        self.fileURLBase = fileURLBase
    }

    /// Whom an object is shown to, as far as its fields go: what ``redact(_:schema:for:)`` decides by, besides the
    /// schema. Callers of one audience see an object's fields alike (LiveQuery shows an object once per audience).
    package enum Audience: Sendable, Hashable {
        /// The master key: every field.
        case master
        /// The user whose `_User` row the object is: its personal fields too, not the hidden ones.
        case ownUser
        /// Anyone else: neither hidden nor personal fields.
        case other
    }

    /// The audience `caller` is for `object`.
    package func audience(of object: StoredObject, for caller: Caller) -> Audience {
        if caller.isMaster { return .master }
        return caller.isUser(object.objectId) ? .ownUser : .other
    }

    /// Removes the fields of `object` that `caller` may not see, and gives a `_File` row its URL.
    package func redact(_ object: inout StoredObject, schema: ClassSchema?, for caller: Caller) {
        redact(&object, schema: schema, audience: audience(of: object, for: caller))
    }

    /// Removes the fields of `object` that `audience` may not see, and gives a `_File` row its URL.
    package func redact(_ object: inout StoredObject, schema: ClassSchema?, audience: Audience) {
        if object.className == "_File", object.fields["url"] == nil, let base = fileURLBase, let key = object.fields["key"]?.stringValue {
            object.fields["url"] = .string(base + "/" + key)
        }
        guard audience != .master else { return }
        for field in schema?.hiddenFields ?? [] { object.fields.removeValue(forKey: field) }
        if audience == .other {
            for field in ClassSchema.privateFields(of: object.className, schema: schema) { object.fields.removeValue(forKey: field) }
        }
    }

    /// ``redact(_:schema:for:)`` for the object a write returns (`fetchWhenSave`, `new`, batch items): a caller who
    /// may write an object but not read it (its ACL grants `write` only) learns nothing of it but its id and
    /// times, as no read would show it more.
    package func redactWritten(_ object: inout StoredObject, schema: ClassSchema?, for caller: Caller) {
        if let readers = caller.readers, !ACL.grants(.read, in: object.acl, to: readers) {
            object.fields = [:]
            object.acl = nil
            return
        }
        redact(&object, schema: schema, for: caller)
    }

    /// Refuses fields that `caller` may not compare, sort, group or select on.
    /// - Parameters:
    ///   - names: the fields named, each with its class (a sub-query names fields of another class).
    ///   - schemaOf: the recorded schema of a class.
    /// - Throws: ``APIError`` ``APIError/Reason/classPermissionDenied``.
    package func checkNamed(
        _ names: [(className: String, field: String)], schemaOf: (String) -> ClassSchema?, for caller: Caller
    ) throws(APIError) {
        guard !caller.isMaster else { return }
        for (className, field) in names where ClassSchema.protectedFields(of: className, schema: schemaOf(className)).contains(field) {
            throw APIError(.classPermissionDenied, "Forbidden to query the protected field '\(field)' of \(className).")
        }
    }
}
