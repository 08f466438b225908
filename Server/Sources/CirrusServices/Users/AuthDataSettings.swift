/// How third-party log-ins (`authData`) are checked. By default only anonymous log-ins pass: every other platform
/// needs its provider's check (``verifiedPlatforms``) or an explicit trust (``trustedPlatforms``), as Parse refuses
/// providers without a configured adapter.
public struct AuthDataSettings: Sendable {
    /// Platforms whose data is accepted as the client sends it, for apps that verified the tokens elsewhere (their
    /// own server, cloud code); `*` trusts every platform. Whoever knows an account's id can then log in as its user.
    public var trustedPlatforms: Set<String>
    /// LeanCloud's and Parse's anonymous log-in (`authData.anonymous.id`, a random id the client keeps and sends as
    /// its credential): on by default, as in both.
    public var allowsAnonymous: Bool
    /// The platforms whose tokens are checked with their provider, by `authData` key: `weixin`, `qq`, `weibo` and
    /// `lc_apple` name their providers; an app's own key (`wxleanoffice`) names the provider that checks it.
    public var verifiedPlatforms: [String: AuthProvider]
    /// The bundle ids (or Services IDs) Apple's identity tokens must be issued to (their `aud`).
    public var appleAudiences: [String]
    /// Where Apple publishes the keys that sign identity tokens (JWKS).
    public var appleKeysURL: String
    /// WeChat's API (`/sns/auth`, `/sns/userinfo`).
    public var weixinURL: String
    /// QQ's API (`/oauth2.0/me`).
    public var qqURL: String
    /// The QQ app ids (`client_id`) a token must belong to; empty: any app's token whose `openid` matches.
    public var qqAppIds: [String]
    /// Weibo's API (`/oauth2/get_token_info`).
    public var weiboURL: String
    /// The Weibo app keys a token must belong to: a Weibo `uid` is the same in every app, so without this check a
    /// token another app obtained would log in as its user.
    public var weiboAppKeys: [String]
    /// How long one provider call may take before the log-in fails with ``APIError/Reason/authProviderUnavailable``.
    public var timeout: Duration

    public init(
        trustedPlatforms: Set<String> = [], allowsAnonymous: Bool = true, verifiedPlatforms: [String: AuthProvider] = [:],
        appleAudiences: [String] = [], appleKeysURL: String = "https://appleid.apple.com/auth/keys",
        weixinURL: String = "https://api.weixin.qq.com", qqURL: String = "https://graph.qq.com", qqAppIds: [String] = [],
        weiboURL: String = "https://api.weibo.com", weiboAppKeys: [String] = [], timeout: Duration = .seconds(5)
    ) {
        self.trustedPlatforms = trustedPlatforms
        self.allowsAnonymous = allowsAnonymous
        self.verifiedPlatforms = verifiedPlatforms
        self.appleAudiences = appleAudiences
        self.appleKeysURL = appleKeysURL
        self.weixinURL = weixinURL
        self.qqURL = qqURL
        self.qqAppIds = qqAppIds
        self.weiboURL = weiboURL
        self.weiboAppKeys = weiboAppKeys
        self.timeout = timeout
    }

    /// Whether the platform's data is taken as sent.
    package func trusts(_ platform: String) -> Bool {
        trustedPlatforms.contains("*") || trustedPlatforms.contains(platform)
    }

    /// What is missing for the checks asked for, or `nil` when they can run: Apple's needs the audiences, Weibo's
    /// the app keys.
    package var problem: String? {
        let providers = Set(verifiedPlatforms.values)
        if providers.contains(.apple), appleAudiences.isEmpty { return "Apple's check needs the app's bundle ids (the tokens' audience)." }
        if providers.contains(.weibo), weiboAppKeys.isEmpty { return "Weibo's check needs the app's Weibo app keys." }
        return nil
    }
}

/// A provider whose tokens Cirrus checks itself.
public enum AuthProvider: String, Sendable, Hashable, CaseIterable {
    case weixin, qq, weibo, apple

    /// The provider a LeanCloud SDK's platform key names (`lc_apple` is Apple's).
    package init?(platform: String) {
        if platform == "lc_apple" {
            self = .apple
        } else {
            self.init(rawValue: platform)
        }
    }
}
