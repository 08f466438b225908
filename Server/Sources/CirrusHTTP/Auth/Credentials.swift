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
        func header(_ names: HTTPField.Name...) -> String? {
            for name in names {
                if let value = headers[name], !value.isEmpty { return value }
            }
            return nil
        }
        switch dialect {
        case .leancloud:
            let headerKey = header(Header.lcKey, Header.avosCloudApplicationKey, Header.uluruApplicationKey)
            return Credentials(
                appId: header(Header.lcId, Header.avosCloudApplicationId, Header.uluruApplicationId) ?? overrides["_ApplicationId"],
                key: headerKey ?? overrides["_ApplicationKey"],
                masterKey: header(Header.avosCloudMasterKey, Header.uluruMasterKey),
                signature: header(Header.lcSign, Header.avosCloudRequestSign),
                sessionToken: header(Header.lcSession, Header.avosCloudSessionToken, Header.uluruSessionToken) ?? overrides["_SessionToken"],
                hookKey: header(Header.lcHookKey),
                keyFromBody: headerKey == nil
            )
        case .parse:
            let headerKey = header(Header.parseRestApiKey, Header.parseClientKey, Header.parseJavascriptKey, Header.parseWindowsKey)
            return Credentials(
                appId: header(Header.parseApplicationId) ?? overrides["_ApplicationId"],
                key: headerKey ?? overrides["_JavaScriptKey"] ?? overrides["_ClientKey"] ?? overrides["_RestAPIKey"],
                masterKey: header(Header.parseMasterKey),
                signature: nil,
                sessionToken: header(Header.parseSessionToken) ?? overrides["_SessionToken"],
                installationId: header(Header.parseInstallationId) ?? overrides["_InstallationId"],
                keyFromBody: headerKey == nil
            )
        case .bmob:
            return Credentials(
                appId: header(Header.bmobApplicationId),
                key: header(Header.bmobRestApiKey),
                masterKey: header(Header.bmobMasterKey),
                signature: nil,
                sessionToken: header(Header.bmobSessionToken)
            )
        }
    }

    /// The credential headers, made once rather than for every request.
    enum Header {
        static let avosCloudApplicationId = HTTPField.Name("X-AVOSCloud-Application-Id")!
        static let avosCloudApplicationKey = HTTPField.Name("X-AVOSCloud-Application-Key")!
        static let avosCloudMasterKey = HTTPField.Name("X-AVOSCloud-Master-Key")!
        static let avosCloudRequestSign = HTTPField.Name("X-AVOSCloud-Request-Sign")!
        static let avosCloudSessionToken = HTTPField.Name("X-AVOSCloud-Session-Token")!
        static let bmobApplicationId = HTTPField.Name("X-Bmob-Application-Id")!
        static let bmobMasterKey = HTTPField.Name("X-Bmob-Master-Key")!
        static let bmobRestApiKey = HTTPField.Name("X-Bmob-REST-API-Key")!
        static let bmobSessionToken = HTTPField.Name("X-Bmob-Session-Token")!
        static let lcHookKey = HTTPField.Name("X-LC-Hook-Key")!
        static let lcId = HTTPField.Name("X-LC-Id")!
        static let lcKey = HTTPField.Name("X-LC-Key")!
        static let lcSession = HTTPField.Name("X-LC-Session")!
        static let lcSign = HTTPField.Name("X-LC-Sign")!
        static let parseApplicationId = HTTPField.Name("X-Parse-Application-Id")!
        static let parseClientKey = HTTPField.Name("X-Parse-Client-Key")!
        static let parseInstallationId = HTTPField.Name("X-Parse-Installation-Id")!
        static let parseJavascriptKey = HTTPField.Name("X-Parse-Javascript-Key")!
        static let parseMasterKey = HTTPField.Name("X-Parse-Master-Key")!
        static let parseRestApiKey = HTTPField.Name("X-Parse-REST-API-Key")!
        static let parseSessionToken = HTTPField.Name("X-Parse-Session-Token")!
        static let parseWindowsKey = HTTPField.Name("X-Parse-Windows-Key")!
        static let uluruApplicationId = HTTPField.Name("X-Uluru-Application-Id")!
        static let uluruApplicationKey = HTTPField.Name("X-Uluru-Application-Key")!
        static let uluruMasterKey = HTTPField.Name("X-Uluru-Master-Key")!
        static let uluruSessionToken = HTTPField.Name("X-Uluru-Session-Token")!
    }
}
