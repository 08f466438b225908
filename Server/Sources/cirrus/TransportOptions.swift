import ArgumentParser
import CirrusHTTP
import CirrusServer

/// The limits and timeouts of `cirrus serve`: request sizes, connections, client and request timeouts, the database's
/// statement timeout and connection wait, the shutdown deadline and the log line bound (docs/SECURITY.md).
struct TransportOptions: ParsableArguments {
    @Option(help: "Largest request body accepted, in bytes (CIRRUS_MAX_BODY_SIZE, default 20971520).")
    var maxBodySize: Int?

    @Option(help: "Longest request line (method, URL, version) accepted, in bytes; longer ones get 414 (CIRRUS_MAX_URL_SIZE, default 32768).")
    var maxUrlSize: Int?

    @Option(help: "Largest header section accepted, in bytes; larger ones get 431 (CIRRUS_MAX_HEADER_SIZE, default 65536).")
    var maxHeaderSize: Int?

    @Option(help: "Largest body of a request without an app id in its headers, in bytes (CIRRUS_MAX_UNAUTHENTICATED_BODY_SIZE, default 1048576).")
    var maxUnauthenticatedBodySize: Int?

    @Option(help: "Most connections held open; lowered to what the file limit allows (CIRRUS_MAX_CONNECTIONS, default 4096).")
    var maxConnections: Int?

    @Option(help: "Seconds an idle keep-alive connection stays open (CIRRUS_IDLE_TIMEOUT, default 60).")
    var idleTimeout: Double?

    @Option(help: "Seconds a request head may take to arrive from its first byte (CIRRUS_HEADER_TIMEOUT, default 20).")
    var headerTimeout: Double?

    @Option(help: "Seconds a request body may send nothing (CIRRUS_BODY_TIMEOUT, default 30).")
    var bodyTimeout: Double?

    @Option(help: "Seconds within which every request is answered; later ones get a timeout error, code 124 (CIRRUS_REQUEST_TIMEOUT, default 30).")
    var requestTimeout: Double?

    @Option(help: "Seconds a database statement may run, 0 for no limit (CIRRUS_STATEMENT_TIMEOUT, default 30).")
    var statementTimeout: Double?

    @Option(help: "Seconds to wait for a free PostgreSQL connection (CIRRUS_DATABASE_WAIT_TIMEOUT, default 10).")
    var databaseWaitTimeout: Double?

    @Option(help: "Seconds a SIGTERM or SIGINT shutdown may take before the rest is cancelled (CIRRUS_SHUTDOWN_TIMEOUT, default 10).")
    var shutdownTimeout: Double?

    @Option(help: "Longest log line, in bytes; longer messages and values are cut (CIRRUS_MAX_LOG_LINE, default 8192).")
    var maxLogLine: Int?

    /// Applies the given flags and variables.
    /// - Throws: `ValidationError` for a malformed or non-positive value.
    func apply(_ values: EnvironmentValues, to configuration: inout ServerConfiguration) throws {
        func size(_ flag: Int?, _ name: String) throws -> Int? {
            guard let value = try values.integer(flag, name) else { return nil }
            guard value > 0 else { throw ValidationError("\(name) must be a positive number, got \(value).") }
            return value
        }
        var transport = configuration.transport
        var resilience = configuration.resilience
        configuration.maximumBodySize = try size(maxBodySize, "CIRRUS_MAX_BODY_SIZE") ?? configuration.maximumBodySize
        transport.maximumURLSize = try size(maxUrlSize, "CIRRUS_MAX_URL_SIZE") ?? transport.maximumURLSize
        transport.maximumHeaderSize = try size(maxHeaderSize, "CIRRUS_MAX_HEADER_SIZE") ?? transport.maximumHeaderSize
        transport.maximumUnauthenticatedBodySize = try size(maxUnauthenticatedBodySize, "CIRRUS_MAX_UNAUTHENTICATED_BODY_SIZE")
            ?? transport.maximumUnauthenticatedBodySize
        transport.maximumConnections = try size(maxConnections, "CIRRUS_MAX_CONNECTIONS") ?? transport.maximumConnections
        transport.idleTimeout = try seconds(idleTimeout, "CIRRUS_IDLE_TIMEOUT", values) ?? transport.idleTimeout
        transport.headerTimeout = try seconds(headerTimeout, "CIRRUS_HEADER_TIMEOUT", values) ?? transport.headerTimeout
        transport.bodyTimeout = try seconds(bodyTimeout, "CIRRUS_BODY_TIMEOUT", values) ?? transport.bodyTimeout
        transport.requestTimeout = try seconds(requestTimeout, "CIRRUS_REQUEST_TIMEOUT", values) ?? transport.requestTimeout
        if let statement = try seconds(statementTimeout, "CIRRUS_STATEMENT_TIMEOUT", values, allowingZero: true) {
            resilience.statementTimeout = statement == .zero ? nil : statement
        }
        resilience.databaseWaitTimeout = try seconds(databaseWaitTimeout, "CIRRUS_DATABASE_WAIT_TIMEOUT", values) ?? resilience.databaseWaitTimeout
        resilience.shutdownTimeout = try seconds(shutdownTimeout, "CIRRUS_SHUTDOWN_TIMEOUT", values) ?? resilience.shutdownTimeout
        resilience.maximumLogLineSize = try size(maxLogLine, "CIRRUS_MAX_LOG_LINE") ?? resilience.maximumLogLineSize
        configuration.transport = transport
        configuration.resilience = resilience
    }

    /// A duration given in seconds (decimals allowed).
    private func seconds(_ flag: Double?, _ name: String, _ values: EnvironmentValues, allowingZero: Bool = false) throws -> Duration? {
        let text = flag.map { String($0) } ?? values.string(nil, name)
        guard let text else { return nil }
        guard let number = Double(text), number.isFinite, number > 0 || (allowingZero && number == 0), number <= 86_400 * 365 else {
            throw ValidationError("\(name) must be a number of seconds\(allowingZero ? " (0 for none)" : " above 0"), got '\(text)'.")
        }
        return .milliseconds(Int64((number * 1000).rounded()))
    }
}
