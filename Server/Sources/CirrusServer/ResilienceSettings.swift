/// How the server bounds what its store, its shutdown and its log may cost. Each is a `cirrus serve` setting
/// (docs/SECURITY.md).
public struct ResilienceSettings: Sendable, Equatable {
    /// The longest a database statement may run: PostgreSQL's `statement_timeout` (and
    /// `idle_in_transaction_session_timeout`), SQLite's progress handler. `nil` for no limit (`cirrus index`, whose
    /// index builds may take long, runs without one).
    public var statementTimeout: Duration? = .seconds(30)
    /// How long work waits for a free PostgreSQL pool connection before it fails.
    public var databaseWaitTimeout: Duration = .seconds(10)
    /// After SIGTERM or SIGINT, requests in flight have this long to finish and the store to close; then the rest is
    /// cancelled, and a second later the process exits whatever is left.
    public var shutdownTimeout: Duration = .seconds(10)
    /// The longest log line, in bytes: a message or metadata value longer than its share is cut, with a marker.
    public var maximumLogLineSize: Int = 8 * 1024

    public init() {}
}
