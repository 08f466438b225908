public import CirrusHTTP
public import CirrusServices
public import Logging

/// Everything `cirrus serve` can be told, from flags or `CIRRUS_*` environment variables.
public struct ServerConfiguration: Sendable {
    public var host: String
    public var port: Int
    /// Where the SQLite database, generated keys and (later) files live.
    public var dataDirectory: String
    /// `nil` for the SQLite file in the data directory; otherwise a database URL.
    public var databaseURL: String?
    /// `nil` to load the keys stored in the data directory, generating them on the first start.
    public var keys: AppKeys?
    /// The largest object accepted, in bytes of JSON.
    public var maximumObjectSize: Int
    /// The largest request body accepted, in bytes.
    public var maximumBodySize: Int
    public var logLevel: Logger.Level
    /// Passwords, sessions and lock-out.
    public var accounts: AccountSettings

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
