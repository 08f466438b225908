package import CirrusSQLStore
package import Logging
package import PostgresNIO

/// The PostgreSQL store: ``SQLStore`` with documents as JSONB, for many instances sharing one database.
package typealias PostgresStorageAdapter = SQLStore<PostgresDriver>

extension SQLStore where Driver == PostgresDriver {
    /// A store on the database `configuration` reaches; the pool connects lazily, on the first statement.
    /// - Parameters:
    ///   - replica: a streaming replica of the same database that queries may read from.
    ///   - connectDeadline: how long ``prepare()`` waits for the first connection before it reports the database
    ///     unreachable.
    ///   - connectionWait: how long work waits for a free pool connection before it fails.
    ///   - changeLogRetention: how long the change-log table keeps a record (for instances and clients catching up).
    package convenience init(
        configuration: PostgresClient.Configuration, replica: PostgresClient.Configuration? = nil,
        connectDeadline: Duration = .seconds(15), connectionWait: Duration = .seconds(10), changeLogRetention: Duration = .seconds(600),
        logger: Logger = Logger(label: "cirrus.postgres")
    ) {
        self.init(driver: PostgresDriver(
            configuration: configuration, replica: replica, connectDeadline: connectDeadline, connectionWait: connectionWait,
            changeLogRetention: changeLogRetention, logger: logger
        ))
    }

    /// A store on the database of a `postgres://user:password@host:port/database?sslmode=…` URL; its
    /// `connect_timeout` (15 s by default) is how long ``prepare()`` waits for the first connection.
    /// - Throws: ``PostgresURLError`` for a malformed URL.
    /// - Parameters:
    ///   - replicaURL: a streaming replica of the same database that queries may read from.
    ///   - statementTimeout: the longest a statement may run (and a transaction stay idle) before PostgreSQL cancels
    ///     it; `nil` for no limit.
    ///   - connectionWait: how long work waits for a free pool connection before it fails.
    ///   - changeLogRetention: how long the change-log table keeps a record.
    package convenience init(
        url: String, replicaURL: String? = nil, statementTimeout: Duration? = nil, connectionWait: Duration = .seconds(10),
        changeLogRetention: Duration = .seconds(600), logger: Logger = Logger(label: "cirrus.postgres")
    ) throws {
        let limit = { PostgresURL.limitingStatements($0, to: statementTimeout) }
        self.init(
            configuration: limit(try PostgresURL.configuration(url)), replica: try replicaURL.map(PostgresURL.configuration).map(limit),
            connectDeadline: try PostgresURL.connectDeadline(url) ?? .seconds(15), connectionWait: connectionWait, changeLogRetention: changeLogRetention, logger: logger
        )
    }
}
