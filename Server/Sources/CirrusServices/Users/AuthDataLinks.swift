import CirrusModel
import CirrusStorage

/// Linking and unlinking third-party accounts through a user update (`PUT /users/<id>` with `authData`).
///
/// A new `authData` object is merged platform by platform into the stored one (LeanCloud's `link_with`), a platform
/// set to `null` is unlinked; every entry the client sets passes the ``AuthDataGate`` (`authData.<platform>`, as the
/// Swift SDK links, too). An account linked to another user is refused (208) by the store's unique index on the
/// links. A user who signed up anonymously and now sets a username and password loses its anonymous link (R#104).
struct AuthDataLinks {
    let objects: ObjectService

    func apply(to update: inout ObjectUpdate, convertsAnonymous: Bool, caller: Caller) async throws {
        let operations = update.operations(on: "authData")
        if convertsAnonymous, operations.isEmpty {
            update.add(FieldPath(["authData", "anonymous"]), .delete)
            return
        }
        if operations.count == 1, let (path, operation) = operations.first, !path.isNested, case .set(let value) = operation {
            update.remove(field: "authData")
            guard case .object(let platforms) = value.wire else {
                throw APIError(.invalidAuthData, "authData must be an object with one entry per platform.")
            }
            for (platform, entry) in platforms.sorted(by: { $0.key < $1.key }) {
                update.add(FieldPath(["authData", platform]), entry.isNull ? .delete : .set(try Value(wire: entry)))
            }
        }
        try await AuthDataGate(validator: objects.configuration.authDataValidator).check(update, caller: caller)
    }
}
