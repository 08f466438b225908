/// Where the cloud-code engine (a LeanEngine app) listens, the keys it is called with, and the time limits of calls.
package struct EngineSettings: Sendable {
    /// The production engine's URL (`--engine-url`); `nil` when the app has no engine.
    package var productionURL: String?
    /// The staging engine's URL (`--staging-engine-url`), chosen by a request's `X-LC-Prod: 0`.
    package var stagingURL: String?
    package var appId: String
    package var appKey: String
    package var masterKey: String
    /// The key the engine checks on hook calls (`X-LC-Hook-Key`), and that lets a request skip hooks.
    package var hookKey: String
    /// The longest a cloud function may take (LeanCloud's 15 s).
    package var functionTimeout: Duration = .seconds(15)
    /// The longest a before-hook, `onLogin` or `onAuthData` may take (LeanCloud's 10 s).
    package var beforeHookTimeout: Duration = .seconds(10)
    /// The longest an after-hook or `onVerified` may take (LeanCloud's 3 s).
    package var afterHookTimeout: Duration = .seconds(3)
    /// How often the list of the engine's hooks is read again.
    package var metadataRefresh: Duration = .seconds(60)

    package init(productionURL: String?, stagingURL: String? = nil, appId: String, appKey: String, masterKey: String, hookKey: String) {
        self.productionURL = productionURL
        self.stagingURL = stagingURL
        self.appId = appId
        self.appKey = appKey
        self.masterKey = masterKey
        self.hookKey = hookKey
    }

    /// The engine a request addresses: staging when it asks for it (`X-LC-Prod: 0`) and one is configured.
    package func url(production: Bool) -> String? {
        production ? productionURL : stagingURL ?? productionURL
    }
}
