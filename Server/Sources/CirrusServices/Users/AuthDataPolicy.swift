package import CirrusModel

/// The server's decision on third-party data (``AuthDataValidator``): anonymous log-ins as the settings allow, trusted
/// platforms as sent, verified platforms after their provider's check, every other platform refused (252).
///
/// Cloud code's `onAuthData` hook, once cloud code exists, is consulted here before the built-in checks.
package struct AuthDataPolicy: AuthDataValidator {
    package let settings: AuthDataSettings
    private let checks: [String: any AccountCheck]

    /// - Parameters:
    ///   - client: how providers are called; `nil` leaves every verified platform unchecked, hence refused.
    ///   - clock: the time identity tokens' expiry is compared with.
    package init(settings: AuthDataSettings = AuthDataSettings(), client: (any ProviderClient)? = nil, clock: @escaping @Sendable () -> Timestamp = { .now() }) {
        self.settings = settings
        var checks: [String: any AccountCheck] = [:]
        if let client {
            let apple = AppleKeySet(url: settings.appleKeysURL, call: ProviderCall(platform: "lc_apple", client: client, timeout: settings.timeout), clock: clock)
            for (platform, provider) in settings.verifiedPlatforms {
                let call = ProviderCall(platform: platform, client: client, timeout: settings.timeout)
                switch provider {
                case .weixin: checks[platform] = WeChatCheck(baseURL: settings.weixinURL, call: call)
                case .qq: checks[platform] = QQCheck(baseURL: settings.qqURL, appIds: settings.qqAppIds, call: call)
                case .weibo: checks[platform] = WeiboCheck(baseURL: settings.weiboURL, appKeys: settings.weiboAppKeys, call: call)
                case .apple: checks[platform] = AppleCheck(keys: apple, audiences: settings.appleAudiences, clock: clock)
                }
            }
        }
        self.checks = checks
    }

    package func validate(platform: String, data: JSON) async throws {
        if platform == "anonymous" {
            guard settings.allowsAnonymous else { throw APIError(.unsupportedAuthPlatform, "Anonymous log-in is switched off.") }
            return
        }
        if settings.trusts(platform) { return }
        guard let check = checks[platform] else {
            throw APIError(.unsupportedAuthPlatform, "Log-in with '\(platform)' is not enabled: the server neither verifies nor trusts it.")
        }
        try await check.verify(try LinkedAccount.account(platform, data))
    }
}

/// One provider's check of an account's token.
protocol AccountCheck: Sendable {
    /// - Throws: ``APIError`` ``APIError/Reason/invalidLinkedSession`` when the provider does not vouch for the
    ///   account, ``APIError/Reason/authProviderUnavailable`` when it cannot be asked.
    func verify(_ account: LinkedAccount) async throws
}

extension AccountCheck {
    /// The refusal of an account's token.
    func refused(_ account: LinkedAccount, _ reason: String) -> APIError {
        APIError(.invalidLinkedSession, "The \(account.platform) token was refused: \(reason).")
    }

    /// The entry's string `key`, required.
    func required(_ key: String, of account: LinkedAccount) throws(APIError) -> String {
        guard let value = account.entry[key]?.stringValue, !value.isEmpty else {
            throw APIError(.invalidAuthData, "The authData of '\(account.platform)' needs '\(key)'.")
        }
        return value
    }
}
