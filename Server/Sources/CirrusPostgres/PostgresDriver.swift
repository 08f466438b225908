package import CirrusModel
package import CirrusSQL
import CirrusSQLStore
package import CirrusStorage
import Foundation
import Logging
import PostgresNIO

/// PostgreSQL through postgres-nio: a connection pool (and optionally a streaming replica's), connections leased so that
/// a database going away fails the work on them (``withConnection(from:waiting:_:)``), change notices over
/// `LISTEN`/`NOTIFY`.
package final class PostgresDriver: SQLDriver {
    let client: PostgresClient
    /// A streaming replica that queries read from while it has replayed every committed write.
    let replica: PostgresClient?
    package let dialect = PostgresDialect()
    let logger: Logger
    /// Where the database is, for messages (never the password).
    let location: String
    /// How long ``open()`` waits for the first connection before it reports the database unreachable.
    let connectDeadline: Duration
    /// How long work waits for a free pool connection before it fails.
    let connectionWait: Duration
    /// The leased connections, so that work on one that closes fails at once.
    let watch = ConnectionWatch()
    /// Names this instance in the change notices it sends, so that it ignores its own.
    let instanceId = UUID().uuidString
    /// The committed object changes of every instance sharing the database, as this instance reads them.
    package let changeLog = ChangeLog()
    /// Reads the change-log table into ``changeLog``.
    let changeLogReader: PostgresChangeLogReader
    /// The listener of notices and the change-log reader, started by ``open()``.
    let background = DriverBackground()
    private let runner: Task<Void, Never>
    private let replicaRunner: Task<Void, Never>?

    init(
        configuration: PostgresClient.Configuration, replica replicaConfiguration: PostgresClient.Configuration?,
        connectDeadline: Duration, connectionWait: Duration, changeLogRetention: Duration, logger: Logger
    ) {
        changeLogReader = PostgresChangeLogReader(retention: changeLogRetention)
        let client = PostgresClient(configuration: configuration, backgroundLogger: logger)
        self.client = client
        let replica = replicaConfiguration.map { PostgresClient(configuration: $0, backgroundLogger: logger) }
        self.replica = replica
        replicaRunner = replica.map { replica in Task { await replica.run() } }
        self.logger = logger
        self.connectDeadline = connectDeadline
        self.connectionWait = connectionWait
        location = "\(configuration.host ?? configuration.unixSocketPath ?? "?"):\(configuration.port.map(String.init) ?? "")/\(configuration.database ?? "")"
        runner = Task { await client.run() }
    }

    /// Waits for the database to answer.
    /// - Throws: ``StorageError/database(_:)`` when no connection succeeds within the connect deadline.
    package func open() async throws {
        do {
            try await withConnection(waiting: connectDeadline) { try await PostgresSession($0, self).execute("SELECT 1") }
        } catch let error as StorageError where error == Self.noFreeConnection(within: connectDeadline) {
            throw StorageError.database("PostgreSQL at \(location) did not accept a connection within \(connectDeadline) (is it running, and are the user, password and database right?)")
        }
    }

    /// (A lookup runs as any read: postgres-nio's connections are asynchronous.)
    package func read(replica: Bool, lookup: Bool, _ body: @escaping @Sendable (PostgresSession) async throws -> Void) async throws {
        if replica, self.replica != nil { return try await fromCaughtUpReplica(body) }
        return try await withConnection { try await body(PostgresSession($0, self)) }
    }

    /// Runs `body` in a transaction on one connection: committed when it returns, rolled back when it throws or when
    /// its task was cancelled first (its request's deadline passed: the client was told it failed).
    package func transaction(_ body: @escaping @Sendable (PostgresSession) async throws -> Void) async throws {
        try await withConnection { connection in
            let session = PostgresSession(connection, self)
            try await session.execute("BEGIN")
            do {
                try await body(session)
                try Task.checkCancellation()
                try await session.execute("COMMIT")
            } catch {
                _ = try? await session.execute("ROLLBACK")
                throw error
            }
        }
    }

    /// A pattern PostgreSQL's regular expressions refuse (or find too complex), a statement too deep for its parser,
    /// arithmetic beyond the largest double, a statement past the statement timeout.
    package func refusal(_ error: any Error) -> APIError? {
        guard let error = error as? PSQLError else { return nil }
        return switch error.serverInfo?[.sqlState] {
        case "2201B": APIError(.invalidQuery, "Invalid regular expression: \(error.serverInfo?[.message] ?? "").")
        case "54001": APIError(.queryTooComplex, "Query too complex: the statement is too deep for the database.")
        case "22003": .numberOutOfRange
        // query_canceled: by the statement timeout (or an operator's pg_cancel_backend).
        case "57014": .statementTimeout
        default: nil
        }
    }

    package func writeFailure(_ error: any Error) -> StorageError {
        guard let error = error as? PSQLError else { return .database(describe(error)) }
        let state = error.serverInfo?[.sqlState]
        let constraint = error.serverInfo?[.constraintName] ?? ""
        // 22P05: a \u0000 escape in a JSON string, which JSONB cannot hold; 22021: no such character in the encoding.
        if state == "22P05" || state == "22021" {
            return .unsupportedValue("strings cannot contain the NUL character (\\u0000) on PostgreSQL")
        }
        if state == "23505" {
            if constraint.hasSuffix("_pkey") { return .duplicateObjectId(constraint) }
            return .duplicateValue(field: SystemSchema.uniqueField(inMessage: constraint) ?? "")
        }
        return .database(describe(error))
    }

    /// A `PSQLError`'s server message and code, which its own description hides.
    package func describe(_ error: any Error) -> String {
        guard let error = error as? PSQLError else { return String(describing: error) }
        guard let info = error.serverInfo else { return String(reflecting: error) }
        return "\(info[.sqlState] ?? "?"): \(info[.message] ?? "")" + (info[.detail].map { " (\($0))" } ?? "")
    }

    /// Ends the pools' connections.
    package func close() async throws {
        await background.stop()
        runner.cancel()
        replicaRunner?.cancel()
        await runner.value
        await replicaRunner?.value
    }
}
