public import CirrusModel
import CirrusSQL
import CirrusSQLAdapter
public import CirrusStorage
import Foundation
import Logging
public import PostgresNIO

/// The PostgreSQL store: documents as JSONB in one table per class (`o_<class>`), the same registry, relation and
/// account tables as the SQLite store, reached through a postgres-nio connection pool.
///
/// Every query, aggregate, ACL predicate and atomic operation runs as SQL in the Postgres dialect of `CirrusSQL`.
/// Several Cirrus instances may share one database: migrations and class creation take advisory locks, and
/// everything a request needs lives in the database.
public final class PostgresStorageAdapter: StorageAdapter {
    let client: PostgresClient
    /// A streaming replica that queries read from while it has replayed every committed write.
    let replica: PostgresClient?
    let dialect = PostgresDialect()
    let tables = TableDirectory()
    let logger: Logger
    /// Where the database is, for messages (never the password).
    let location: String
    /// How long ``prepare()`` waits for the first connection before it reports the database unreachable.
    let connectDeadline: Duration
    /// How long work waits for a free pool connection before it fails.
    let connectionWait: Duration
    /// The leased connections, so that work on one that closes fails at once.
    let watch = ConnectionWatch()
    /// Names this instance in the change notices it sends, so that it ignores its own.
    let instanceId = UUID().uuidString
    private let runner: Task<Void, Never>
    private let replicaRunner: Task<Void, Never>?
    private let closeOnce = OnceFlag()

    /// A store on the database `configuration` reaches; the pool connects lazily, on the first statement.
    /// - Parameter connectionWait: how long work waits for a free pool connection before it fails.
    public init(
        configuration: PostgresClient.Configuration, replica replicaConfiguration: PostgresClient.Configuration? = nil,
        connectDeadline: Duration = .seconds(15), connectionWait: Duration = .seconds(10), logger: Logger = Logger(label: "cirrus.postgres")
    ) {
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

    /// A store on the database of a `postgres://user:password@host:port/database?sslmode=…` URL.
    /// - Throws: ``PostgresURLError`` for a malformed URL.
    /// - Parameters:
    ///   - replicaURL: a streaming replica of the same database that queries may read from.
    ///   - statementTimeout: the longest a statement may run (and a transaction stay idle) before PostgreSQL cancels
    ///     it; `nil` for no limit.
    ///   - connectionWait: how long work waits for a free pool connection before it fails.
    public convenience init(
        url: String, replicaURL: String? = nil, statementTimeout: Duration? = nil, connectionWait: Duration = .seconds(10),
        logger: Logger = Logger(label: "cirrus.postgres")
    ) throws {
        let limit = { PostgresURL.limitingStatements($0, to: statementTimeout) }
        self.init(
            configuration: limit(try PostgresURL.configuration(url)), replica: try replicaURL.map(PostgresURL.configuration).map(limit),
            connectionWait: connectionWait, logger: logger
        )
    }

    /// Applies the migrations, once the database has answered.
    /// - Throws: ``StorageError/database(_:)`` when no connection succeeds within the connect deadline.
    public func prepare() async throws {
        do {
            try await withConnection(waiting: connectDeadline) { try await self.execute($0, "SELECT 1") }
        } catch let error as StorageError where error == Self.noFreeConnection(within: connectDeadline) {
            throw StorageError.database("PostgreSQL at \(self.location) did not accept a connection within \(self.connectDeadline) (is it running, and are the user, password and database right?)")
        }
        try await migrate()
    }

    private func migrate() async throws {
        try await writing { connection in
            // One instance migrates a schema at a time; the others wait and then find the migrations applied.
            try await self.execute(connection, "SELECT pg_advisory_xact_lock(hashtextextended('cirrus-migrations:' || current_schema(), 0))")
            let bookkeeping = MigrationStatements(dialect: self.dialect)
            try await self.execute(connection, bookkeeping.bootstrap)
            let applied = Set(try await self.rows(connection, bookkeeping.applied).compactMap { $0.first?.text })
            for migration in SystemSchema.migrations(self.dialect) where !applied.contains(migration.name) {
                for statement in migration.statements { try await self.execute(connection, "\(raw: statement)") }
                try await self.execute(connection, bookkeeping.record(migration.name, at: Timestamp.now()))
            }
            try await self.migrateUserTable(connection, applied: applied)
        }
    }

    public func loadSchemas() async throws -> [ClassSchema] {
        let registry = RegistryStatements(dialect: dialect)
        return try await withConnection { connection in
            var schemas: [String: ClassSchema] = [:]
            for row in try await self.rows(connection, registry.allClasses) {
                guard let name = row[0].text, let table = row[1].text else { continue }
                schemas[name] = ClassSchema(className: name, options: Self.options(row[2].text))
                self.tables.record(className: name, table: table)
            }
            for row in try await self.rows(connection, registry.allFields) {
                guard let name = row[0].text, let field = row[1].text, let type = row[2].text.flatMap(FieldType.init(storedName:)) else { continue }
                schemas[name]?.fields[field] = type
            }
            return schemas.values.sorted { $0.className < $1.className }
        }
    }

    public func loadSchema(of className: String) async throws -> ClassSchema? {
        try await withConnection { connection in
            guard let row = try await self.rows(connection, RegistryStatements(dialect: self.dialect).findClass(className)).first,
                let table = row[1].text
            else { return nil }
            self.tables.record(className: className, table: table)
            return try await self.recordedSchema(of: className, options: row[2].text, connection)
        }
    }

    /// The field types and options the registry records for a class.
    /// - Parameter options: the class's stored options when the caller has read its registry row already.
    func recordedSchema(of className: String, options: String?? = nil, _ connection: PostgresConnection) async throws -> ClassSchema {
        let registry = RegistryStatements(dialect: dialect)
        let stored: String?
        if let options {
            stored = options
        } else {
            stored = try await rows(connection, registry.findClass(className)).first?[2].text
        }
        var schema = ClassSchema(className: className, options: Self.options(stored))
        for field in try await rows(connection, registry.fields(of: className)) {
            if let name = field[1].text, let type = field[2].text.flatMap(FieldType.init(storedName:)) { schema.fields[name] = type }
        }
        return schema
    }

    /// A class's options from their stored text (`NULL`: the defaults).
    static func options(_ text: String?) -> ClassOptions {
        guard let text, let json = try? JSONParser.parse(Array(text.utf8)) else { return ClassOptions() }
        return ClassOptions(stored: json)
    }

    /// Ends the pool's connections.
    public func close() async throws {
        guard closeOnce.claim() else { return }
        runner.cancel()
        replicaRunner?.cancel()
        await runner.value
        await replicaRunner?.value
    }

    /// The table of a class, read from the directory or the registry; `nil` if the class does not exist.
    func existingTable(for className: String, _ connection: PostgresConnection) async throws -> String? {
        if let table = tables.table(for: className) { return table }
        guard let table = try await rows(connection, RegistryStatements(dialect: dialect).findClass(className)).first?[1].text else {
            return nil
        }
        tables.record(className: className, table: table)
        return table
    }
}
