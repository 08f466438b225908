/// The identity and secrets of the one app a server serves.
public struct AppKeys: Sendable, Hashable {
    public var appId: String
    /// The client key: LeanCloud's App Key, Parse's REST API / client key, Bmob's REST API Key.
    public var appKey: String
    /// The master key: skips every permission check; for trusted servers only.
    public var masterKey: String

    public init(appId: String, appKey: String, masterKey: String) {
        self.appId = appId
        self.appKey = appKey
        self.masterKey = masterKey
    }
}
