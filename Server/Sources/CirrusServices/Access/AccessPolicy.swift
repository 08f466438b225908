package import CirrusModel

/// The one place that decides what a caller may do to a class, before any store call. Object-level rules (the
/// ACL) are passed on to the store as ``Caller/readers`` and ``Caller/writers``, which every read and write
/// applies in SQL; what this type decides is everything above the object:
///
/// - the master key may do everything;
/// - the class permissions (get, find, create, update, delete, add_fields) for everyone, logged-in users, or
///   listed users and roles; `_User` find is off by default (seed 000 L918–925), `_File` delete too;
/// - `_User` objects are created by sign-up only and changed or deleted only by the user themself (LeanCloud's
///   206 without that user's session); `_Session` objects only through the session endpoints;
/// - column flags: clients may not write read-only fields (which fields they may read and name in a query is
///   ``FieldVisibility``'s);
/// - a query that reads another class in a sub-query needs that class's find permission, and one that lists a
///   relation (`$relatedTo`) the get permission of the relation's owner class.
package struct AccessPolicy: Sendable {
    package init() {}

    /// Refuses an operation the caller may not perform on the class.
    /// - Parameters:
    ///   - objectId: the object of a get, update or delete.
    ///   - schema: the class as recorded (`nil` for a class that does not exist yet: default permissions).
    /// - Throws: ``APIError`` ``APIError/Reason/sessionRequired`` or ``APIError/Reason/classPermissionDenied``.
    package func check(
        _ operation: ClassPermissions.Operation, on className: String, objectId: String? = nil, schema: ClassSchema?, caller: Caller
    ) throws(APIError) {
        if caller.isReadOnly, ![.get, .find].contains(operation) { throw Self.readOnly }
        guard !caller.isMaster else { return }
        try checkSystemClass(operation, className, objectId, caller)
        try checkClassPermission(operation, on: className, schema: schema, caller: caller)
    }

    static let readOnly = APIError(.forbidden, "A read-only caller may not change anything.")

    /// Only the class permission of an operation, for the endpoints that stand for an object API the system class
    /// refuses (an upload creates a `_File` row).
    package func checkClassPermission(
        _ operation: ClassPermissions.Operation, on className: String, schema: ClassSchema?, caller: Caller
    ) throws(APIError) {
        guard !caller.isMaster else { return }
        let permissions = schema?.permissions ?? .defaults(for: className)
        guard permissions.rule(for: operation).grants(userId: caller.userId, roleNames: caller.roleNames) else {
            throw APIError(.classPermissionDenied, "Forbidden to \(Self.verb(operation)) by class permissions.")
        }
    }

    private func checkSystemClass(
        _ operation: ClassPermissions.Operation, _ className: String, _ objectId: String?, _ caller: Caller
    ) throws(APIError) {
        switch (className, operation) {
        case ("_User", .create):
            throw APIError(.classPermissionDenied, "Users are created by signing up.")
        case ("_User", .update), ("_User", .delete):
            guard let objectId, caller.isUser(objectId) else {
                throw APIError(.sessionRequired, "The user cannot be altered by a client without the session.")
            }
        case ("_Session", _):
            throw APIError(.classPermissionDenied, "Sessions are managed through the session endpoints.")
        case ("_File", .create):
            throw APIError(.classPermissionDenied, "Files are created by uploading them.")
        default:
            return
        }
    }

    /// Refuses a write that changes a read-only field, or (with `newFields`) adds fields the caller may not add.
    package func checkWrite(_ update: ObjectUpdate, newFields: [String: FieldType], schema: ClassSchema?, caller: Caller) throws(APIError) {
        guard !caller.isMaster, let schema else { return }
        if let field = update.operations.first(where: { schema.fieldOptions($0.path.root).readOnly })?.path.root {
            throw APIError(.readOnlyField, "The field '\(field)' is read-only for clients.")
        }
        if !newFields.isEmpty {
            try check(.addFields, on: schema.className, schema: schema, caller: caller)
        }
    }

    static func verb(_ operation: ClassPermissions.Operation) -> String {
        switch operation {
        case .addFields: "add fields"
        default: operation.rawValue
        }
    }
}

extension Condition {
    /// Every field a condition reads, with its class: `className` for this condition's own fields, a sub-query's
    /// class for the fields of its condition and its `$select` key, the owner's class for a `$relatedTo` key.
    package func fieldsRead(in className: String) -> [(className: String, field: String)] {
        switch self {
        case .always: return []
        case .relatedTo(let owner, let key): return [(owner.className, key)]
        case .and(let parts), .or(let parts), .nor(let parts): return parts.flatMap { $0.fieldsRead(in: className) }
        case .inQuery(let path, let query, _):
            return [(className, path.root)] + query.condition.fieldsRead(in: query.className)
        case .select(let path, let query, let key, _):
            return [(className, path.root), (query.className, key.root)] + query.condition.fieldsRead(in: query.className)
        default:
            return fieldRoots.map { (className, $0) }
        }
    }
}
