import CirrusModel

/// Weibo: `oauth2/get_token_info` tells the token's `uid`, app (`appkey`) and remaining lifetime (`expire_in`). A Weibo
/// uid is the same in every app, so the app must be one of the configured ones.
struct WeiboCheck: AccountCheck {
    let baseURL: String
    let appKeys: [String]
    let call: ProviderCall

    func verify(_ account: LinkedAccount) async throws {
        let token = try required("access_token", of: account)
        let reply = try await call.json(ProviderRequest(url: baseURL + "/oauth2/get_token_info", form: ["access_token": token]))
        if let error = reply["error"], !error.isNull { throw refused(account, "error \(JSONWriter.string(error))") }
        let uid = reply["uid"]?.stringValue ?? reply["uid"]?.intValue.map(String.init)
        guard uid == account.id else { throw refused(account, "it belongs to another uid") }
        guard appKeys.contains(reply["appkey"]?.stringValue ?? reply["appkey"]?.intValue.map(String.init) ?? "") else {
            throw refused(account, "it was issued to another app")
        }
        if let remaining = reply["expire_in"]?.intValue, remaining <= 0 { throw refused(account, "it has expired") }
    }
}
