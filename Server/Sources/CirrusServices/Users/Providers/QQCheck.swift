import CirrusModel

/// QQ: `oauth2.0/me` tells the token's `openid` (and, asked for, its `unionid`) and app (`client_id`); they must be
/// the entry's, and the app one of the configured ones when any are.
struct QQCheck: AccountCheck {
    let baseURL: String
    let appIds: [String]
    let call: ProviderCall

    func verify(_ account: LinkedAccount) async throws {
        let token = try required("access_token", of: account)
        var query = [("access_token", token), ("fmt", "json")]
        if account.unionId != nil { query.append(("unionid", "1")) }
        let reply = try await call.json(.get(baseURL + "/oauth2.0/me", query))
        if let error = reply["error"], !error.isNull {
            throw refused(account, "error \(JSONWriter.string(error))" + (reply["error_description"]?.stringValue.map { " \($0)" } ?? ""))
        }
        guard reply["openid"]?.stringValue == account.id else { throw refused(account, "it belongs to another openid") }
        if let unionId = account.unionId, reply["unionid"]?.stringValue != unionId { throw refused(account, "it belongs to another unionid") }
        if !appIds.isEmpty, !appIds.contains(reply["client_id"]?.stringValue ?? "") { throw refused(account, "it was issued to another app") }
    }
}
