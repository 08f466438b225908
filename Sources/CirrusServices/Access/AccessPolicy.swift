public import CirrusModel

/// The one place that decides what a caller may do to a class, before any store call. Object-level rules (the
/// ACL) are passed on to the store as ``Caller/readers`` and ``Caller/writers``, which every read and write
/// applies in SQL; what this type decides is everything above the object:
///
/// - the master key may do everything;
/// - `_User` objects are created by sign-up only, changed or deleted only by the user themself (LeanCloud's
///   206 without that user's session), and found only with the master key (`_User` find is off by default, seed
///   000 L918–925); fetching one by id stays allowed;
/// - `_Session` objects are managed by the session endpoints only;
/// - a query that reads another class in a sub-query needs that class's find permission too.
public struct AccessPolicy: Sendable {
    public init() {}

    /// What a caller is about to do.
    public enum Operation: String, Sendable {
        case get, find, create, update, delete
    }

    /// Refuses an operation the caller may not perform on the class.
    /// - Parameter objectId: the object of a get, update or delete.
    /// - Throws: ``APIError`` ``APIError/Reason/sessionRequired`` or ``APIError/Reason/classPermissionDenied``.
    public func check(_ operation: Operation, on className: String, objectId: String? = nil, caller: Caller) throws(APIError) {
        guard !caller.isMaster else { return }
        switch (className, operation) {
        case ("_User", .create):
            throw APIError(.classPermissionDenied, "Users are created by signing up.")
        case ("_User", .update), ("_User", .delete):
            guard let objectId, caller.isUser(objectId) else {
                throw APIError(.sessionRequired, "The user cannot be altered by a client without the session.")
            }
        case ("_User", .find):
            throw APIError(.classPermissionDenied, "Forbidden to find by class permissions.")
        case ("_Session", .create), ("_Session", .update), ("_Session", .delete), ("_Session", .find), ("_Session", .get):
            throw APIError(.classPermissionDenied, "Sessions are managed through the session endpoints.")
        default:
            return
        }
    }

    /// Refuses a query whose condition reads a class (in `$inQuery`, `$select` and the like) the caller may not
    /// find in.
    public func checkSubqueries(of condition: Condition, caller: Caller) throws(APIError) {
        for className in condition.referencedClassNames.sorted() {
            try check(.find, on: className, caller: caller)
        }
    }
}
