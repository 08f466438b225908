/// The identity and secrets of the one app a server serves.
public struct AppKeys: Sendable, Hashable {
    public var appId: String
    /// The client key: LeanCloud's App Key, Parse's REST API / client key, Bmob's REST API Key.
    public var appKey: String
    /// The master key: skips every permission check; for trusted servers only.
    public var masterKey: String
    /// The hook key (LeanCloud's): the cloud-code engine checks it on hook calls, and a request carrying it may skip
    /// hooks (`__ignore_hooks`). `nil`: no request holds it.
    public var hookKey: String?

    public init(appId: String, appKey: String, masterKey: String, hookKey: String? = nil) {
        self.appId = appId
        self.appKey = appKey
        self.masterKey = masterKey
        self.hookKey = hookKey
    }
}
