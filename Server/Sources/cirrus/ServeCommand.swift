import ArgumentParser
import CirrusHTTP
import CirrusServer
import Foundation
import Logging

/// `cirrus serve`: runs the HTTP server until SIGINT or SIGTERM, finishing in-flight requests first.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Start the server.",
        discussion: "Every option can also be set with the environment variable named after it (CIRRUS_…); a flag wins."
    )

    @Option(help: "Address to listen on (CIRRUS_HOST, default 127.0.0.1).")
    var host: String?

    @Option(help: "Port to listen on (CIRRUS_PORT, default 3000).")
    var port: Int?

    @OptionGroup var store: StoreOptions

    @Option(help: "App id (CIRRUS_APP_ID). Give all three keys, or none to use the generated ones.")
    var appId: String?

    @Option(help: "App key, the client key of every dialect (CIRRUS_APP_KEY).")
    var appKey: String?

    @Option(help: "Master key (CIRRUS_MASTER_KEY).")
    var masterKey: String?

    @Option(help: "Largest object accepted, in bytes (CIRRUS_MAX_OBJECT_SIZE, default 131072).")
    var maxObjectSize: Int?

    @Option(help: "Log level: trace, debug, info, notice, warning, error, critical (CIRRUS_LOG_LEVEL, default info).")
    var logLevel: String?

    @OptionGroup(title: "Accounts") var accounts: AccountOptions

    @OptionGroup(title: "Message transports") var messaging: MessagingOptions

    @OptionGroup(title: "Files") var files: FileOptions

    @OptionGroup(title: "File URLs") var fileServing: FileServingOptions

    @OptionGroup(title: "Third-party log-in") var authData: AuthDataOptions
    @OptionGroup(title: "Limits and timeouts") var limits: TransportOptions
    @OptionGroup(title: "Query limits") var queryLimits: QueryLimitOptions
    @OptionGroup(title: "LiveQuery") var liveQuery: LiveQueryOptions
    @OptionGroup(title: "Cloud code") var engine: EngineOptions

    @OptionGroup(title: "Push notifications") var push: PushOptions

    @Option(help: "Serve the web console at /dashboard (CIRRUS_DASHBOARD, default true). CIRRUS_DASHBOARD_DIR serves its files from a directory instead of those compiled in, for working on the page.")
    var dashboard: Bool?

    @Option(help: "Write every answered request to this file as a JSON line, credentials blanked; past 64 MB it becomes <file>.1 (CIRRUS_REQUEST_LOG). The console's request log reads it too.")
    var requestLog: String?

    @Option(help: "Serve the server's metrics in Prometheus's text format at /metrics to scrapes that send this bearer token (CIRRUS_METRICS_TOKEN, default: no metrics).")
    var metricsToken: String?

    func run() async throws {
        TerminationSignals.catchFromNow()
        let configuration = try makeConfiguration(environment: ProcessInfo.processInfo.environment)
        let maximumLineSize = configuration.resilience.maximumLogLineSize
        // Every line written while a request is answered carries its id (`request=…`, RequestID).
        LoggingSystem.bootstrap({ label, metadataProvider in
            var handler = StreamLogHandler.standardError(label: label, metadataProvider: metadataProvider)
            handler.logLevel = configuration.logLevel
            return BoundedLogHandler(wrapping: handler, maximumLineSize: maximumLineSize)
        }, metadataProvider: RequestID.metadataProvider)
        var logger = Logger(label: "cirrus")
        logger.logLevel = configuration.logLevel
        let server = try await CirrusServer.build(configuration, logger: logger)
        logger.info("cirrus listening", metadata: [
            "address": "http://\(configuration.host):\(configuration.port)", "appId": "\(server.keys.appId)",
            "dataDir": "\(configuration.dataDirectory)",
        ])
        try await server.run()
    }

    func makeConfiguration(environment: [String: String]) throws -> ServerConfiguration {
        func value(_ flag: String?, _ name: String) -> String? {
            flag ?? environment[name].flatMap { $0.isEmpty ? nil : $0 }
        }
        var configuration = ServerConfiguration()
        configuration.host = value(host, "CIRRUS_HOST") ?? configuration.host
        configuration.port = try port ?? integer(environment["CIRRUS_PORT"], "CIRRUS_PORT") ?? configuration.port
        let (dataDirectory, databaseURL) = store.resolve(environment: environment)
        configuration.dataDirectory = dataDirectory ?? configuration.dataDirectory
        configuration.databaseURL = databaseURL
        configuration.databaseReplicaURL = store.replica(environment: environment)
        configuration.maximumObjectSize = try maxObjectSize ?? integer(environment["CIRRUS_MAX_OBJECT_SIZE"], "CIRRUS_MAX_OBJECT_SIZE")
            ?? configuration.maximumObjectSize
        if let level = value(logLevel, "CIRRUS_LOG_LEVEL") {
            guard let parsed = Logger.Level(rawValue: level) else { throw ValidationError("Unknown log level '\(level)'.") }
            configuration.logLevel = parsed
        }
        let values = EnvironmentValues(environment: environment)
        configuration.accounts = try accounts.settings(values, defaults: configuration.accounts)
        configuration.smtp = try messaging.smtp(values)
        configuration.smsWebhook = try messaging.smsWebhook(values)
        try files.apply(values, to: &configuration)
        try fileServing.apply(values, to: &configuration)
        try authData.apply(values, to: &configuration)
        try limits.apply(values, to: &configuration)
        try queryLimits.apply(values, to: &configuration)
        try liveQuery.apply(values, to: &configuration)
        let keys = [value(appId, "CIRRUS_APP_ID"), value(appKey, "CIRRUS_APP_KEY"), value(masterKey, "CIRRUS_MASTER_KEY")]
        switch keys.compactMap({ $0 }).count {
        case 0: break
        case 3: configuration.keys = AppKeys(appId: keys[0]!, appKey: keys[1]!, masterKey: keys[2]!)
        default: throw ValidationError("Give the app id, app key and master key together, or none of them.")
        }
        try engine.apply(values, to: &configuration)
        try push.apply(values, to: &configuration)
        configuration.dashboard = try values.bool(dashboard, "CIRRUS_DASHBOARD") ?? configuration.dashboard
        configuration.dashboardDirectory = values.string(nil, "CIRRUS_DASHBOARD_DIR")
        configuration.requestLogFile = values.string(requestLog, "CIRRUS_REQUEST_LOG")
        configuration.metricsToken = values.string(metricsToken, "CIRRUS_METRICS_TOKEN")
        return configuration
    }

    private func integer(_ text: String?, _ name: String) throws -> Int? {
        guard let text, !text.isEmpty else { return nil }
        guard let number = Int(text) else { throw ValidationError("\(name) must be an integer, got '\(text)'.") }
        return number
    }
}
