import CirrusModel

/// The rules of `_Role` writes: a valid name, set once, and an ACL; the `users` relation holds users and the
/// `roles` relation roles.
struct RoleRules {
    /// Letters, digits, `_`, `-` and spaces: LeanCloud's letters, digits and underscore, and what Parse adds.
    static func isValidName(_ name: String) -> Bool {
        !name.isEmpty && name.unicodeScalars.allSatisfy { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || "_- ".unicodeScalars.contains($0)) }
    }

    func checkCreate(_ update: ObjectUpdate) throws(APIError) {
        guard case .set(.string(let name))? = update.operations(on: "name").first?.operation else {
            throw APIError(.invalidRoleName, "A role needs a name.")
        }
        guard Self.isValidName(name) else {
            throw APIError(.invalidRoleName, "Invalid role name '\(name)': use letters, digits, '_', '-' and spaces.")
        }
        guard case .some(.some) = update.acl else { throw APIError(.roleACLRequired, "Role ACL is required.") }
        try checkRelations(update)
    }

    /// - Parameter storedName: the name the role has now.
    func checkUpdate(_ update: ObjectUpdate, storedName: String?) throws(APIError) {
        for (_, operation) in update.operations(on: "name") {
            guard case .set(.string(let name)) = operation, name == storedName else {
                throw APIError(.immutableField, "A role's name can only be set before it has been saved.")
            }
        }
        if case .some(.none) = update.acl { throw APIError(.roleACLRequired, "Role ACL is required.") }
        try checkRelations(update)
    }

    private func checkRelations(_ update: ObjectUpdate) throws(APIError) {
        for (field, added, removed) in update.relationOperations {
            let expected = field == "users" ? "_User" : field == "roles" ? "_Role" : nil
            guard let expected else { continue }
            if let stray = (added + removed).first(where: { $0.className != expected }) {
                throw APIError(.incorrectType, "The '\(field)' relation of a role holds \(expected) objects, not \(stray.className).")
            }
        }
    }
}
