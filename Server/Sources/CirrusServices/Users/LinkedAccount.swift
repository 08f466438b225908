public import CirrusModel

/// One third-party account in a user's `authData`: `{"<platform>": {"uid": …, "access_token": …}}`.
///
/// The account is identified by `uid`; WeChat-like platforms send `openid` instead, and the anonymous platform
/// `id` (seed 001 L1482–1494). An entry may carry UnionID fields: `unionid`, `platform` (the UnionID platform) and
/// `main_account` (seed 001 L1577–1715).
struct LinkedAccount: Sendable {
    let platform: String
    let entry: [String: JSON]
    /// The key that identifies the account in the entry.
    let idKey: String
    let id: String

    var unionId: String? { entry["unionid"]?.stringValue }
    var unionPlatform: String? { entry["platform"]?.stringValue }
    var isMainAccount: Bool { entry["main_account"]?.boolValue == true }

    /// The path that finds the user holding this account.
    var path: FieldPath { FieldPath(["authData", platform, idKey]) }

    /// `_<platform>_unionid`: the key a main account holds its UnionID under.
    var unionKey: String? { unionPlatform.map { "_\($0)_unionid" } }

    /// The accounts of an `authData` object.
    /// - Throws: ``APIError`` ``APIError/Reason/invalidAuthData`` for a malformed entry or one without an id.
    static func accounts(in authData: JSON) throws(APIError) -> [LinkedAccount] {
        guard case .object(let platforms) = authData, !platforms.isEmpty else {
            throw APIError(.invalidAuthData, "authData must be an object with one entry per platform.")
        }
        var accounts: [LinkedAccount] = []
        for (platform, value) in platforms.sorted(by: { $0.key < $1.key }) where !value.isNull {
            accounts.append(try account(platform, value))
        }
        return accounts
    }

    static func account(_ platform: String, _ value: JSON) throws(APIError) -> LinkedAccount {
        guard FieldName.isIdentifier(platform), case .object(let entry) = value else {
            throw APIError(.invalidAuthData, "Invalid authData for platform '\(platform)'.")
        }
        guard let (key, id) = identity(in: entry) else { throw APIError(.invalidAuthData, "The authData of '\(platform)' has no uid.") }
        return LinkedAccount(platform: platform, entry: entry, idKey: key, id: id)
    }

    /// The key and value that identify the account of an entry: the first of `uid`, `openid` and `id` holding a
    /// non-empty string or an integer. The stores' migration reads existing entries by the same rule.
    static func identity(in entry: [String: JSON]) -> (key: String, id: String)? {
        for key in ["uid", "openid", "id"] {
            if let id = entry[key]?.stringValue ?? entry[key]?.intValue.map(String.init), !id.isEmpty { return (key, id) }
        }
        return nil
    }
}

/// Decides whether the third-party data a client sends may log in or be linked: the seam every check plugs into.
///
/// The server installs ``AuthDataPolicy`` (the settings' trusted platforms, anonymous log-in, and the providers'
/// token checks; every other platform refused); tests and embedders may install their own through
/// ``ServiceConfiguration/authDataValidator``. Cloud code's `onAuthData` hook, once cloud code exists, is one more
/// validator consulted first.
public protocol AuthDataValidator: Sendable {
    /// Accepts the data of one platform, or throws ``APIError``: ``APIError/Reason/invalidLinkedSession`` when the
    /// provider refuses it, ``APIError/Reason/unsupportedAuthPlatform`` for a platform nothing vouches for,
    /// ``APIError/Reason/authProviderUnavailable`` when the provider cannot be asked.
    func validate(platform: String, data: JSON) async throws
}
