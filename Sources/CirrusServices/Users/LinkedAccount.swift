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
        for key in ["uid", "openid", "id"] {
            if let id = entry[key]?.stringValue ?? entry[key]?.intValue.map(String.init), !id.isEmpty {
                return LinkedAccount(platform: platform, entry: entry, idKey: key, id: id)
            }
        }
        throw APIError(.invalidAuthData, "The authData of '\(platform)' has no uid.")
    }
}

/// Checks third-party tokens with their providers before a log-in or a link is accepted. None is installed by
/// default, as LeanCloud's "validate access tokens" can be switched off and a self-hosted server may have no network;
/// a deployment plugs one in through ``ServiceConfiguration/authDataValidator``.
public protocol AuthDataValidator: Sendable {
    /// Accepts the data of one platform, or throws ``APIError`` ``APIError/Reason/invalidAuthData``.
    func validate(platform: String, data: JSON) async throws
}
