import ArgumentParser
import CirrusServer
import CirrusServices

/// The third-party log-in settings of `cirrus serve`: which platforms' tokens are checked with their providers, which
/// are trusted as sent, anonymous log-in, and the providers' endpoints.
struct AuthDataOptions: ParsableArguments {
    @Option(help: "Platforms whose tokens are checked with their provider: weixin, qq, weibo, lc_apple, or <platform>=<weixin|qq|weibo|apple> for an app's own key; comma-separated (CIRRUS_AUTH_VERIFY).")
    var authVerify: [String] = []

    @Option(help: "Platforms whose authData is accepted as sent, unverified, or * for all; only for apps that verify tokens elsewhere (CIRRUS_AUTH_TRUST).")
    var authTrust: [String] = []

    @Flag(inversion: .prefixedNo, help: "Anonymous log-in (authData.anonymous) (CIRRUS_AUTH_ANONYMOUS, default on).")
    var authAnonymous: Bool?

    @Option(help: "The bundle ids (or Services IDs) Apple's identity tokens must be issued to; comma-separated (CIRRUS_AUTH_APPLE_AUDIENCE).")
    var authAppleAudience: [String] = []

    @Option(help: "The QQ app ids tokens must belong to; comma-separated (CIRRUS_AUTH_QQ_APP_ID, default any).")
    var authQqAppId: [String] = []

    @Option(help: "The Weibo app keys tokens must belong to; comma-separated, required to verify weibo (CIRRUS_AUTH_WEIBO_APP_KEY).")
    var authWeiboAppKey: [String] = []

    @Option(help: "Apple's key set URL (CIRRUS_AUTH_APPLE_KEYS_URL, default https://appleid.apple.com/auth/keys).")
    var authAppleKeysUrl: String?

    @Option(help: "WeChat's API (CIRRUS_AUTH_WEIXIN_URL, default https://api.weixin.qq.com).")
    var authWeixinUrl: String?

    @Option(help: "QQ's API (CIRRUS_AUTH_QQ_URL, default https://graph.qq.com).")
    var authQqUrl: String?

    @Option(help: "Weibo's API (CIRRUS_AUTH_WEIBO_URL, default https://api.weibo.com).")
    var authWeiboUrl: String?

    @Option(help: "Seconds a provider's token check may take (CIRRUS_AUTH_TIMEOUT, default 5).")
    var authTimeout: Int?

    /// Applies the given flags and variables.
    /// - Throws: `ValidationError` for an unknown provider, a malformed URL or a check that lacks its settings.
    func apply(_ values: EnvironmentValues, to configuration: inout ServerConfiguration) throws {
        var settings = configuration.authData
        for entry in Self.items(values.list(authVerify, "CIRRUS_AUTH_VERIFY")) {
            let parts = entry.split(separator: "=", maxSplits: 1).map(String.init)
            let provider = parts.count == 2 ? AuthProvider(rawValue: parts[1]) : AuthProvider(platform: parts[0])
            guard let provider else { throw ValidationError("'\(entry)': name weixin, qq, weibo or lc_apple, or give <platform>=<weixin|qq|weibo|apple>.") }
            settings.verifiedPlatforms[parts[0]] = provider
        }
        settings.trustedPlatforms.formUnion(Self.items(values.list(authTrust, "CIRRUS_AUTH_TRUST")))
        settings.allowsAnonymous = try values.bool(authAnonymous, "CIRRUS_AUTH_ANONYMOUS") ?? settings.allowsAnonymous
        settings.appleAudiences += Self.items(values.list(authAppleAudience, "CIRRUS_AUTH_APPLE_AUDIENCE"))
        settings.qqAppIds += Self.items(values.list(authQqAppId, "CIRRUS_AUTH_QQ_APP_ID"))
        settings.weiboAppKeys += Self.items(values.list(authWeiboAppKey, "CIRRUS_AUTH_WEIBO_APP_KEY"))
        settings.appleKeysURL = try Self.url(values.string(authAppleKeysUrl, "CIRRUS_AUTH_APPLE_KEYS_URL")) ?? settings.appleKeysURL
        settings.weixinURL = try Self.url(values.string(authWeixinUrl, "CIRRUS_AUTH_WEIXIN_URL")) ?? settings.weixinURL
        settings.qqURL = try Self.url(values.string(authQqUrl, "CIRRUS_AUTH_QQ_URL")) ?? settings.qqURL
        settings.weiboURL = try Self.url(values.string(authWeiboUrl, "CIRRUS_AUTH_WEIBO_URL")) ?? settings.weiboURL
        if let seconds = try values.integer(authTimeout, "CIRRUS_AUTH_TIMEOUT") {
            guard (1...60).contains(seconds) else { throw ValidationError("--auth-timeout takes 1 to 60 seconds.") }
            settings.timeout = .seconds(seconds)
        }
        if let problem = settings.problem { throw ValidationError(problem) }
        configuration.authData = settings
    }

    /// The comma-separated items of every value.
    static func items(_ values: [String]) -> [String] {
        values.flatMap { $0.split(separator: ",").map { $0.filter { !$0.isWhitespace } } }.filter { !$0.isEmpty }
    }

    /// An http(s) URL without its trailing slash.
    static func url(_ text: String?) throws -> String? {
        guard let text else { return nil }
        guard text.hasPrefix("https://") || text.hasPrefix("http://") else { throw ValidationError("'\(text)' is not an http(s) URL.") }
        return text.hasSuffix("/") ? String(text.dropLast()) : text
    }
}
