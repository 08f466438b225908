/// The app's cloud-code engine (a LeanEngine app): where it listens and the hook key it shares with the server.
public struct EngineConfiguration: Sendable, Hashable {
    /// The production engine's URL (`--engine-url`); `nil`: the app has no engine, and function calls answer
    /// "no such cloud function".
    public var url: String?
    /// The staging engine's URL (`--staging-engine-url`), for requests with `X-LC-Prod: 0`.
    public var stagingURL: String?
    /// How often the engine's list of hooks is read again, in seconds.
    public var metadataRefreshSeconds: Int = 60
    /// The longest a cloud function may take, in seconds (LeanCloud's 15).
    public var functionTimeoutSeconds: Int = 15
    /// The longest a before-hook, `onLogin` or `onAuthData` may take, in seconds (LeanCloud's 10).
    public var hookTimeoutSeconds: Int = 10

    public init(url: String? = nil, stagingURL: String? = nil) {
        self.url = url
        self.stagingURL = stagingURL
    }
}
