public import CirrusHTTP
public import CirrusModel
public import CirrusMessaging
public import CirrusServices
public import CirrusStorage
public import CirrusS3
public import Logging

/// Everything `cirrus serve` can be told, from flags or `CIRRUS_*` environment variables.
public struct ServerConfiguration: Sendable {
    public var host: String
    public var port: Int
    /// Where the SQLite database, generated keys and (later) files live.
    public var dataDirectory: String
    /// `nil` for the SQLite file in the data directory; otherwise a database URL.
    public var databaseURL: String?
    /// A streaming replica of the PostgreSQL database that queries may read from.
    public var databaseReplicaURL: String?
    /// `nil` to load the keys stored in the data directory, generating them on the first start.
    public var keys: AppKeys?
    /// The largest object accepted, in bytes of JSON.
    public var maximumObjectSize: Int
    /// The largest request body accepted, in bytes.
    public var maximumBodySize: Int
    public var logLevel: Logger.Level
    /// Passwords, sessions, lock-out, verification rules, and the texts and limits of account messages.
    public var accounts: AccountSettings
    /// The SMTP server account e-mails go through; `nil` (and no ``mailSender``) appends them to the development
    /// outbox `<data dir>/outbox/mail.jsonl`.
    public var smtp: SMTPConfiguration?
    /// The HTTP endpoint SMS messages are posted to; `nil` (and no ``smsSender``) appends them to the development
    /// outbox `<data dir>/outbox/sms.jsonl`.
    public var smsWebhook: WebhookSMSConfiguration?
    /// A mail transport to use instead of ``smtp`` or the outbox (tests inject one).
    public var mailSender: (any MailSender)?
    /// An SMS transport to use instead of ``smsWebhook`` or the outbox (tests inject one).
    public var smsSender: (any SMSSender)?
    /// Which third-party log-ins are accepted: trusted platforms, anonymous log-in, the providers' token checks.
    public var authData = AuthDataSettings()
    /// Decides on third-party log-in data instead of the policy ``authData`` describes (tests, embedders); `nil`: that
    /// policy.
    public var authDataValidator: (any AuthDataValidator)?
    /// Where uploaded file contents are kept; `nil`: an S3-compatible bucket when ``s3`` is set, else files on disk
    /// in `<data dir>/files`.
    public var fileStorage: (any FileStorage)?
    /// The S3-compatible bucket file contents go to.
    public var s3: S3Configuration?
    /// The largest file accepted, in bytes.
    public var maximumFileSize: Int = 20 * 1024 * 1024
    /// How many uploads one client may start per window (LeanCloud's 430 beyond it).
    public var uploadRateLimit: RateLimit = .uploadDefault
    /// The header a trusted reverse proxy puts the client's address in (`X-Forwarded-For`); `nil`: the client is the
    /// connection's peer. Set it only behind a proxy that overwrites the header, or clients choose their address.
    public var clientAddressHeader: String?
    /// The origin file URLs start with (`https://files.example.com`) instead of the public URL: a domain of its own
    /// keeps uploaded content away from the API's origin. `nil`: the public URL.
    public var filePublicURL: String?
    /// HTTP limits: request head and body sizes, connections, client timeouts, the request deadline.
    public var transport = TransportSettings()
    /// The statement timeout, the wait for a database connection, the shutdown deadline and the log line bound.
    public var resilience = ResilienceSettings()
    /// The bounds of queries, includes and regular expressions.
    public var queryLimits = QueryLimits()
    /// LiveQuery: whether it is served, the socket's path and public URL, its limits.
    public var liveQuery = LiveQuerySettings()
    /// How long PostgreSQL's change-log table keeps a record, for instances and clients catching up.
    public var changeLogRetention: Duration = .seconds(600)
    /// The app's cloud-code engine: functions, hooks (none by default).
    public var engine = EngineConfiguration()
    /// Push delivery: APNs and FCM credentials (none by default: pushes are kept and their devices counted as failed).
    public var push = PushConfiguration()
    /// Whether the web console is served at `/dashboard` (on by default).
    public var dashboard = true
    /// A directory the console's files are read from instead of those compiled in (for working on the page).
    public var dashboardDirectory: String?
    /// How long one live view of the console (a stream of a class's changes) lasts before the browser opens a new one,
    /// which checks its session again.
    public var dashboardLiveLifetime: Duration = .seconds(300)
    /// A file every answered request is written to as a JSON line (the console's request log reads it too), if any.
    public var requestLogFile: String?
    /// The bearer token of `/metrics` (Prometheus's text format); without one the server serves no metrics and
    /// counts nothing.
    public var metricsToken: String?

    public init(
        host: String = "127.0.0.1", port: Int = 3000, dataDirectory: String = "./cirrus-data", databaseURL: String? = nil,
        keys: AppKeys? = nil, maximumObjectSize: Int = 131_072, maximumBodySize: Int = 20 * 1024 * 1024, logLevel: Logger.Level = .info,
        accounts: AccountSettings = AccountSettings()
    ) {
        self.host = host
        self.port = port
        self.dataDirectory = dataDirectory
        self.databaseURL = databaseURL
        self.keys = keys
        self.maximumObjectSize = maximumObjectSize
        self.maximumBodySize = maximumBodySize
        self.logLevel = logLevel
        self.accounts = accounts
    }
}
