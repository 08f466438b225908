import HTTPTypes

/// The credentials a request carries, read from the headers of its dialect and, for the LeanCloud and
/// Parse method-override workaround, from the `_ApplicationId`-style fields of a `text/plain` body.
///
/// A master key is taken from headers and signatures only, never from a body: a body field could be
/// filled in by any page that can make the browser send a request.
struct Credentials: Sendable {
    var appId: String?
    var key: String?
    var masterKey: String?
    /// `X-LC-Sign`: `md5(timestamp + key),timestamp[,master]`.
    var signature: String?
    var sessionToken: String?
    /// Parse's `X-Parse-Installation-Id`, recorded on the sessions a log-in creates.
    var installationId: String?
    /// LeanCloud's `X-LC-Hook-Key`, which the cloud-code engine's SDKs send.
    var hookKey: String?
    /// Whether the key came from a method-override body, where `<master>,master` gives no master rights.
    var keyFromBody = false

    /// Whether these name the app and carry a key, master key or signature: enough to authenticate without a body.
    var isComplete: Bool {
        appId != nil && (key != nil || masterKey != nil || signature != nil)
    }

    static func read(from headers: HTTPFields, overrides: [String: String], dialect: Dialect) -> Credentials {
        func header(_ names: String...) -> String? {
            for name in names {
                if let field = HTTPField.Name(name), let value = headers[field], !value.isEmpty { return value }
            }
            return nil
        }
        switch dialect {
        case .leancloud:
            let headerKey = header("X-LC-Key", "X-AVOSCloud-Application-Key", "X-Uluru-Application-Key")
            return Credentials(
                appId: header("X-LC-Id", "X-AVOSCloud-Application-Id", "X-Uluru-Application-Id") ?? overrides["_ApplicationId"],
                key: headerKey ?? overrides["_ApplicationKey"],
                masterKey: header("X-AVOSCloud-Master-Key", "X-Uluru-Master-Key"),
                signature: header("X-LC-Sign", "X-AVOSCloud-Request-Sign"),
                sessionToken: header("X-LC-Session", "X-AVOSCloud-Session-Token", "X-Uluru-Session-Token") ?? overrides["_SessionToken"],
                hookKey: header("X-LC-Hook-Key"),
                keyFromBody: headerKey == nil
            )
        case .parse:
            let headerKey = header("X-Parse-REST-API-Key", "X-Parse-Client-Key", "X-Parse-Javascript-Key", "X-Parse-Windows-Key")
            return Credentials(
                appId: header("X-Parse-Application-Id") ?? overrides["_ApplicationId"],
                key: headerKey ?? overrides["_JavaScriptKey"] ?? overrides["_ClientKey"] ?? overrides["_RestAPIKey"],
                masterKey: header("X-Parse-Master-Key"),
                signature: nil,
                sessionToken: header("X-Parse-Session-Token") ?? overrides["_SessionToken"],
                installationId: header("X-Parse-Installation-Id") ?? overrides["_InstallationId"],
                keyFromBody: headerKey == nil
            )
        case .bmob:
            return Credentials(
                appId: header("X-Bmob-Application-Id"),
                key: header("X-Bmob-REST-API-Key"),
                masterKey: header("X-Bmob-Master-Key"),
                signature: nil,
                sessionToken: header("X-Bmob-Session-Token")
            )
        }
    }
}
