import ArgumentParser
import CirrusHTTP
import CirrusServer

/// LiveQuery's settings of `cirrus serve` (``LiveQuerySettings``) and the change log's retention.
struct LiveQueryOptions: ParsableArguments {
    @Option(help: "Serve LiveQuery: the REST subscribe, /v1/route and its WebSocket (CIRRUS_LIVEQUERY, default true).")
    var livequery: Bool?

    @Option(help: "The path of LiveQuery's WebSocket for the LeanCloud SDKs (CIRRUS_LIVEQUERY_PATH, default /rtm).")
    var livequeryPath: String?

    @Option(help: "The path of Parse's LiveQuery WebSocket on the same port (CIRRUS_LIVEQUERY_PARSE_PATH, default /parse).")
    var livequeryParsePath: String?

    @Option(help: "The port of LiveQuery's WebSocket; 0 for any free one (CIRRUS_LIVEQUERY_PORT, default the API's port plus one).")
    var livequeryPort: Int?

    @Option(help: "The WebSocket's URL as clients reach it, e.g. wss://example.com/rtm behind a proxy (CIRRUS_LIVEQUERY_PUBLIC_URL; default: the host of --public-url, the WebSocket's port and path).")
    var livequeryPublicUrl: String?

    @Option(help: "Seconds a LiveQuery socket may stay open without logging in (CIRRUS_LIVEQUERY_LOGIN_TIMEOUT, default 60).")
    var livequeryLoginTimeout: Int?

    @Option(help: "Events a LiveQuery socket may have waiting before it is closed (CIRRUS_LIVEQUERY_QUEUE, default 1000).")
    var livequeryQueue: Int?

    @Option(help: "Recent changes kept for LiveQuery clients that resume after a dropped connection, within the retention (CIRRUS_LIVEQUERY_REPLAY, default 10000).")
    var livequeryReplay: Int?

    @Option(help: "Seconds the change log keeps a record: PostgreSQL's table, and the changes kept for LiveQuery clients that resume (CIRRUS_CHANGE_LOG_RETENTION, default 600).")
    var changeLogRetention: Int?

    /// Applies the given flags and variables.
    /// - Throws: `ValidationError` for a number that is not positive or a path that does not start with `/`.
    func apply(_ values: EnvironmentValues, to configuration: inout ServerConfiguration) throws {
        var settings = configuration.liveQuery
        if let enabled = try values.bool(livequery, "CIRRUS_LIVEQUERY") { settings.enabled = enabled }
        if let path = values.string(livequeryPath, "CIRRUS_LIVEQUERY_PATH") {
            guard path.hasPrefix("/"), !path.contains("?") else { throw ValidationError("CIRRUS_LIVEQUERY_PATH must be a path starting with /, got \(path).") }
            settings.path = path
        }
        if let path = values.string(livequeryParsePath, "CIRRUS_LIVEQUERY_PARSE_PATH") {
            guard path.hasPrefix("/"), !path.contains("?"), path != settings.path else {
                throw ValidationError("CIRRUS_LIVEQUERY_PARSE_PATH must be a path starting with /, other than LeanCloud's, got \(path).")
            }
            settings.parsePath = path
        }
        if let port = try values.integer(livequeryPort, "CIRRUS_LIVEQUERY_PORT") {
            guard (0...65535).contains(port) else { throw ValidationError("CIRRUS_LIVEQUERY_PORT must be a port number, got \(port).") }
            settings.port = port
        }
        if let url = values.string(livequeryPublicUrl, "CIRRUS_LIVEQUERY_PUBLIC_URL") {
            guard url.hasPrefix("ws://") || url.hasPrefix("wss://") else {
                throw ValidationError("CIRRUS_LIVEQUERY_PUBLIC_URL must be a ws:// or wss:// URL, got \(url).")
            }
            settings.publicURL = url
        }
        if let seconds = try values.positiveInteger(livequeryLoginTimeout, "CIRRUS_LIVEQUERY_LOGIN_TIMEOUT") { settings.loginTimeout = .seconds(seconds) }
        if let limit = try values.positiveInteger(livequeryQueue, "CIRRUS_LIVEQUERY_QUEUE") { settings.queueLimit = limit }
        if let limit = try values.positiveInteger(livequeryReplay, "CIRRUS_LIVEQUERY_REPLAY") { settings.replayLimit = limit }
        configuration.liveQuery = settings
        if let seconds = try values.positiveInteger(changeLogRetention, "CIRRUS_CHANGE_LOG_RETENTION") { configuration.changeLogRetention = .seconds(seconds) }
    }
}
