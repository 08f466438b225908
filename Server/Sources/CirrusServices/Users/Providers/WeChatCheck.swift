import CirrusModel

/// WeChat (`weixin`): the access token of an app or web log-in must belong to the entry's `openid`: `sns/auth`
/// answers `errcode` 0. An entry that claims a UnionID (which logs into the UnionID's main account) is checked with
/// `sns/userinfo` instead, which tells the token's `openid` and `unionid`.
struct WeChatCheck: AccountCheck {
    let baseURL: String
    let call: ProviderCall

    func verify(_ account: LinkedAccount) async throws {
        let token = try required("access_token", of: account)
        let query = [("access_token", token), ("openid", account.id)]
        guard let unionId = account.unionId else {
            let reply = try await call.json(.get(baseURL + "/sns/auth", query))
            guard reply["errcode"]?.intValue == 0 else { throw refused(account, Self.describe(reply)) }
            return
        }
        let reply = try await call.json(.get(baseURL + "/sns/userinfo", query))
        guard reply["errcode"] == nil || reply["errcode"]?.intValue == 0 else { throw refused(account, Self.describe(reply)) }
        guard reply["openid"]?.stringValue == account.id else { throw refused(account, "it belongs to another openid") }
        guard reply["unionid"]?.stringValue == unionId else { throw refused(account, "it belongs to another unionid") }
    }

    static func describe(_ reply: JSON) -> String {
        "errcode \(reply["errcode"].map(JSONWriter.string) ?? "missing")" + (reply["errmsg"]?.stringValue.map { " \($0)" } ?? "")
    }
}
