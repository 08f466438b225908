import CirrusModel
import CirrusStorage

/// The special fields of `_User` writes: the password goes to the account tables, hashed; fields the server
/// maintains are ignored unless the master key sets them; a changed e-mail or phone number is unverified again.
struct UserRules {
    let hasher: PasswordHasher

    /// Fields only the server (or the master key) sets. Clients that echo a fetched user back (ParsePy saves every
    /// field it got) send them too, so they are dropped rather than refused.
    static let serverFields: Set<String> = ["emailVerified", "mobilePhoneVerified", "sessionToken"]

    /// Applies the rules to a create or update of user `userId`; returns the account writes it needs (the password,
    /// the links of third-party accounts).
    /// - Throws: ``APIError`` for an empty username or password, a malformed e-mail or phone number, an operation on
    ///   `authData` other than by platform.
    func apply(to update: inout ObjectUpdate, userId: String, caller: Caller) throws -> [AccountWrite] {
        var writes = try AuthLinkChanges.writes(update, userId: userId)
        if let password = try newPassword(&update) {
            writes.append(.setPassword(userId: userId, password: try hasher.hash(password)))
        }
        for field in Self.serverFields where !caller.isMaster || field == "sessionToken" {
            update.remove(field: field)
        }
        try checkLoginNames(update)
        if !update.operations(on: "email").isEmpty, update.operations(on: "emailVerified").isEmpty {
            update.set("emailVerified", .set(.bool(false)))
        }
        if !update.operations(on: "mobilePhoneNumber").isEmpty, update.operations(on: "mobilePhoneVerified").isEmpty {
            update.set("mobilePhoneVerified", .set(.bool(false)))
        }
        return writes
    }

    /// The new password of the update, taken out of it.
    private func newPassword(_ update: inout ObjectUpdate) throws(APIError) -> String? {
        let operations = update.remove(field: "password")
        guard let (path, operation) = operations.first else { return nil }
        guard !path.isNested, case .set(.string(let password)) = operation, !password.isEmpty else {
            throw APIError(.passwordMissing, "The password must be a non-empty string.")
        }
        return password
    }

    private func checkLoginNames(_ update: ObjectUpdate) throws(APIError) {
        for (path, operation) in update.operations where ["username", "email", "mobilePhoneNumber"].contains(path.root) {
            guard !path.isNested else { throw APIError(.invalidKeyName, "'\(path)' is not a field of a user.") }
            switch (path.root, operation) {
            case ("username", .set(.string(let name))) where !name.allSatisfy(\.isWhitespace): continue
            case ("username", _): throw APIError(.usernameMissing, "The username must be a non-blank string.")
            case ("email", .set(.string(let email))) where Self.isEmail(email): continue
            case ("email", .delete): continue
            case ("email", _): throw APIError(.invalidEmail, "The email address is invalid.")
            case ("mobilePhoneNumber", .set(.string(let number))) where Self.isPhoneNumber(number): continue
            case ("mobilePhoneNumber", .delete): continue
            default: throw APIError(.invalidMobilePhoneNumber, "The mobile phone number is invalid.")
            }
        }
    }

    /// `local@domain` with no spaces: what LeanCloud accepts as an address.
    static func isEmail(_ text: String) -> Bool {
        let parts = text.split(separator: "@", omittingEmptySubsequences: false)
        return parts.count == 2 && !parts[0].isEmpty && parts[1].contains(".") && !parts[1].hasPrefix(".") && !parts[1].hasSuffix(".")
            && !text.contains(where: \.isWhitespace)
    }

    /// Digits, optionally after `+` (`+8618612345678`), 5 to 20 of them.
    static func isPhoneNumber(_ text: String) -> Bool {
        let digits = text.hasPrefix("+") ? text.dropFirst() : Substring(text)
        return (5...20).contains(digits.count) && digits.allSatisfy { $0.isASCII && $0.isNumber }
    }
}
