import ArgumentParser
import CirrusHTTP
import CirrusServer

/// The cloud-code engine's settings of `cirrus serve` (``EngineConfiguration``) and the hook key.
struct EngineOptions: ParsableArguments {
    @Option(help: "The URL of the app's LeanEngine app, which serves its cloud functions and hooks (CIRRUS_ENGINE_URL; default none).")
    var engineUrl: String?

    @Option(help: "The URL of its staging instance, for requests with X-LC-Prod: 0 (CIRRUS_STAGING_ENGINE_URL; default the engine's).")
    var stagingEngineUrl: String?

    @Option(help: "The hook key the engine checks (LEANCLOUD_APP_HOOK_KEY in the engine) (CIRRUS_HOOK_KEY; default: generated and kept in the data directory's keys.json; required with keys given as flags when an engine is set).")
    var hookKey: String?

    @Option(help: "Seconds a cloud function may take before its caller gets error 124 (CIRRUS_ENGINE_TIMEOUT, default 15, as LeanCloud).")
    var engineTimeout: Int?

    @Option(help: "Seconds a before-hook, onLogin or onAuthData may take before the write or log-in is refused (CIRRUS_ENGINE_HOOK_TIMEOUT, default 10, as LeanCloud).")
    var engineHookTimeout: Int?

    @Option(help: "Seconds between two reads of the engine's list of hooks (CIRRUS_ENGINE_REFRESH, default 60).")
    var engineRefresh: Int?

    /// Applies the given flags and variables.
    /// - Throws: `ValidationError` for a URL that is not http(s), or an engine with flag-given keys and no hook key.
    func apply(_ values: EnvironmentValues, to configuration: inout ServerConfiguration) throws {
        for (flag, name) in [(engineUrl, "CIRRUS_ENGINE_URL"), (stagingEngineUrl, "CIRRUS_STAGING_ENGINE_URL")] {
            guard let url = values.string(flag, name) else { continue }
            guard url.hasPrefix("http://") || url.hasPrefix("https://") else { throw ValidationError("\(name) must be an http:// or https:// URL, got \(url).") }
            if name == "CIRRUS_ENGINE_URL" { configuration.engine.url = url } else { configuration.engine.stagingURL = url }
        }
        if configuration.engine.stagingURL != nil, configuration.engine.url == nil {
            throw ValidationError("CIRRUS_STAGING_ENGINE_URL needs CIRRUS_ENGINE_URL, the production engine.")
        }
        if let seconds = try values.positiveInteger(engineTimeout, "CIRRUS_ENGINE_TIMEOUT") { configuration.engine.functionTimeoutSeconds = seconds }
        if let seconds = try values.positiveInteger(engineHookTimeout, "CIRRUS_ENGINE_HOOK_TIMEOUT") { configuration.engine.hookTimeoutSeconds = seconds }
        if let seconds = try values.positiveInteger(engineRefresh, "CIRRUS_ENGINE_REFRESH") { configuration.engine.metadataRefreshSeconds = seconds }
        if let key = values.string(hookKey, "CIRRUS_HOOK_KEY") {
            guard configuration.keys != nil else { throw ValidationError("CIRRUS_HOOK_KEY is given with the app keys (CIRRUS_APP_ID, CIRRUS_APP_KEY, CIRRUS_MASTER_KEY); without them the hook key is kept in keys.json.") }
            configuration.keys?.hookKey = key
        } else if configuration.engine.url != nil, configuration.keys != nil {
            throw ValidationError("With the app keys given as flags or variables and an engine (CIRRUS_ENGINE_URL), give its hook key too (CIRRUS_HOOK_KEY).")
        }
    }
}
