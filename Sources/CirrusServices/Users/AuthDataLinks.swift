import CirrusModel
import CirrusStorage

/// Linking and unlinking third-party accounts through a user update (`PUT /users/<id>` with `authData`).
///
/// A new `authData` object is merged platform by platform into the stored one (LeanCloud's `link_with`), a platform
/// set to `null` is unlinked, and an account already linked to another user is refused (208). A user who signed up
/// anonymously and now sets a username and password loses its anonymous link (recording R#104).
struct AuthDataLinks {
    let objects: ObjectService

    func apply(to update: inout ObjectUpdate, userId: String, convertsAnonymous: Bool) async throws {
        let operations = update.operations(on: "authData")
        if convertsAnonymous, operations.isEmpty {
            update.add(FieldPath(["authData", "anonymous"]), .delete)
            return
        }
        guard let (path, operation) = operations.first, !path.isNested, case .set(let value) = operation else { return }
        update.remove(field: "authData")
        guard case .object(let platforms) = value.wire else {
            throw APIError(.invalidAuthData, "authData must be an object with one entry per platform.")
        }
        for (platform, entry) in platforms.sorted(by: { $0.key < $1.key }) {
            guard !entry.isNull else {
                update.add(FieldPath(["authData", platform]), .delete)
                continue
            }
            let account = try LinkedAccount.account(platform, entry)
            try await objects.configuration.authDataValidator?.validate(platform: platform, data: entry)
            try await checkUnlinked(account, userId: userId)
            update.add(FieldPath(["authData", platform]), .set(try Value(wire: entry)))
        }
    }

    /// Refuses an account that another user holds.
    private func checkUnlinked(_ account: LinkedAccount, userId: String) async throws {
        guard let schema = try await objects.schemas.schema(of: "_User") else { return }
        let condition = Condition.compare(account.path, .equal, .string(account.id))
        let holders = try await objects.store.find(StorageQuery(className: "_User", schema: schema, condition: condition, limit: 2))
        if holders.contains(where: { $0.objectId != userId }) {
            throw APIError(.authDataTaken, "This \(account.platform) account is already linked to another user.")
        }
    }
}
