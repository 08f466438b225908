package import CirrusModel
package import CirrusSQL
import CirrusSQLStore
package import CirrusStorage
import Foundation
package import GRDB

/// SQLite through GRDB: one file in WAL mode, one writer and a pool of concurrent readers. Acknowledged writes are
/// committed in WAL with `synchronous=NORMAL`, which survives a crash or `kill -9` of the process. The functions the
/// dialect's SQL calls (regular expressions with a budget, refusals, geometry, real-number text) are registered on
/// every connection.
package struct SQLiteDriver: SQLDriver {
    package let pool: DatabasePool
    package let dialect = SQLiteDialect()
    /// The change log: one process writes the file, so the log lives in that process's memory.
    package let changeLog = ChangeLog(position: ChangeLog.clockPosition())
    /// The statements each connection keeps compiled.
    let statements = PreparedStatements()
    /// The connections lookups run on, on the calling thread (``read(replica:lookup:_:)``).
    let lookups: LookupConnections

    init(path: String, readers: Int, statementTimeout: Duration?, regexBudgetMilliseconds: Int) throws {
        var configuration = Configuration()
        configuration.maximumReaderCount = readers
        configuration.busyMode = .timeout(10)
        let regexpFunction = Self.regexpFunction(budgetMilliseconds: regexBudgetMilliseconds)
        configuration.prepareDatabase { db in
            try db.execute(sql: "PRAGMA synchronous = NORMAL")
            if let statementTimeout { StatementClock.install(on: db, limit: statementTimeout) }
            db.add(function: regexpFunction)
            db.add(function: Self.refuseFunction)
            db.add(function: Self.distanceFunction)
            db.add(function: Self.realTextFunction)
            db.add(function: Self.polygonFunction)
        }
        pool = try DatabasePool(path: path, configuration: configuration)
        var lookupConfiguration = configuration
        lookupConfiguration.prepareDatabase { db in try db.execute(sql: "PRAGMA query_only = ON") }
        // A lookup holds one of Swift's few concurrency threads, so it never waits for a lock there: a busy file (a
        // checkpoint, a log being recovered) sends it the pool's way, which waits on GRDB's queues instead.
        lookupConfiguration.busyMode = .immediateError
        lookups = LookupConnections(path: path, limit: max(2, ProcessInfo.processInfo.activeProcessorCount), configuration: lookupConfiguration)
    }

    /// A read on one of the reader connections (SQLite has no replica), in a transaction of its own so that its
    /// statements see one state of the file.
    ///
    /// A lookup runs on the calling thread, on a connection of ``lookups``: GRDB's `async` read hands the work to the
    /// reader's dispatch queue and back, two thread switches that cost a get by id more than its statement. A lookup
    /// holds its thread for a bounded time (rows by key), and the lookup connections are as many as the threads that
    /// may run them at once, so it never waits for one behind a long query. Every other read, whose time depends on
    /// what the client asked, runs on GRDB's reader pool and holds no thread of Swift's concurrency pool meanwhile.
    package func read(replica: Bool, lookup: Bool, _ body: @escaping @Sendable (SQLiteSession) async throws -> Void) async throws {
        if lookup, let connection = lookups.take() {
            defer { lookups.give(connection) }
            do {
                return try await readHere(on: connection, body)
            } catch let error as DatabaseError where error.resultCode == .SQLITE_BUSY {
                // Reads only, so the pool's way below runs them again, waiting for the lock off this thread.
            }
        }
        try await pool.read { db in
            let session = SQLiteSession(db: db, dialect: dialect, statements: statements)
            return try ConnectionExecutor.run { try await body(session) }
        }
    }

    /// A read on `connection`, on this thread; a cancelled task interrupts its statement (``ReadInterruption``).
    private func readHere(on connection: DatabaseQueue, _ body: @escaping @Sendable (SQLiteSession) async throws -> Void) async throws {
        let interruption = ReadInterruption()
        try await withTaskCancellationHandler {
            try connection.inDatabase { db in
                try interruption.begin(db.sqliteConnection)
                defer { interruption.end() }
                let session = SQLiteSession(db: db, dialect: dialect, statements: statements)
                try session.run(Self.beginRead)
                do {
                    try ConnectionExecutor.run { try await body(session) }
                } catch {
                    if db.isInsideTransaction { try? session.run(Self.rollback) }
                    throw error
                }
                try session.run(Self.commit)
            }
        } onCancel: {
            interruption.fire()
        }
    }

    static let beginRead = "BEGIN DEFERRED TRANSACTION"
    static let commit = "COMMIT"
    static let rollback = "ROLLBACK"

    /// A transaction on the writer connection.
    package func transaction(_ body: @escaping @Sendable (SQLiteSession) async throws -> Void) async throws {
        try await pool.write { db in
            let session = SQLiteSession(db: db, dialect: dialect, statements: statements)
            return try ConnectionExecutor.run { try await body(session) }
        }
    }

    /// Hands the records to the change log once the transaction commits, on the writer: in commit order.
    package func log(_ records: [ChangeRecord], in session: SQLiteSession) async throws {
        let changeLog = changeLog
        session.db.afterNextTransaction(onCommit: { _ in changeLog.append(records) })
    }

    /// Straight into the log: nothing to commit.
    package func append(_ records: [ChangeRecord]) async throws {
        changeLog.append(records)
    }

    /// A refusal raised inside the statement (``SQLiteRefusal``), or the statement clock's interruption past the
    /// statement timeout.
    package func refusal(_ error: any Error) -> APIError? {
        guard let error = error as? DatabaseError else { return nil }
        if let refusal = SQLiteRefusal.apiError(fromMessage: error.message) { return refusal }
        return error.resultCode == .SQLITE_INTERRUPT ? .statementTimeout : nil
    }

    package func writeFailure(_ error: any Error) -> StorageError {
        guard let error = error as? DatabaseError else { return .database(describe(error)) }
        if error.extendedResultCode == .SQLITE_CONSTRAINT_PRIMARYKEY { return .duplicateObjectId(error.message ?? "") }
        if error.extendedResultCode == .SQLITE_CONSTRAINT_UNIQUE {
            return .duplicateValue(field: SystemSchema.uniqueField(inMessage: error.message ?? "") ?? "")
        }
        return .database(error.description)
    }

    package func describe(_ error: any Error) -> String {
        String(describing: error)
    }

    /// Moves the write-ahead log into the database file (so that after a clean stop the file alone holds every
    /// write), then closes every connection.
    package func close() async throws {
        lookups.close()
        do {
            try await pool.writeWithoutTransaction { db in _ = try db.checkpoint(.truncate) }
        } catch {
            try pool.close()
            throw error
        }
        try pool.close()
    }
}

/// A GRDB connection inside its access: used only on the connection's thread, by the task ``ConnectionExecutor`` runs
/// there, while the access lasts.
package struct SQLiteSession: SQLSession, @unchecked Sendable {
    let db: Database
    let dialect: SQLiteDialect
    let statements: PreparedStatements

    package func rows(_ fragment: SQLFragment) async throws -> [[SQLValue]] {
        let (sql, bindings) = try dialect.renderForDatabase(fragment)
        let statement = try statements.statement(sql, in: db)
        // A cursor's row reads the statement's current row in place: each value is copied once, into the result.
        let cursor = try Row.fetchCursor(statement, arguments: Self.arguments(bindings))
        var rows: [[SQLValue]] = []
        while let row = try cursor.next() {
            rows.append((0..<row.count).map { SQLValue(row[$0] as DatabaseValue) })
        }
        return rows
    }

    /// GRDB's arguments of `bindings`. (Its initializer from a sequence of a generic value type maps it with a key path
    /// that the runtime builds on every call, unspecialized across modules; the one from optionals does not.)
    static func arguments(_ bindings: [SQLValue]) -> StatementArguments {
        StatementArguments(bindings.map { $0.databaseValue as (any DatabaseValueConvertible)? })
    }

    /// Runs one statement without arguments, kept prepared.
    func run(_ sql: String) throws {
        try statements.statement(sql, in: db).execute()
    }

    package func execute(_ fragment: SQLFragment) async throws {
        let (sql, bindings) = try dialect.renderForDatabase(fragment)
        let arguments = Self.arguments(bindings)
        // Several statements in one text (schema migrations) are run as they come; one is kept prepared.
        guard !sql.contains(";") else { return try db.execute(sql: sql, arguments: arguments) }
        try statements.statement(sql, in: db).execute(arguments: arguments)
    }
}

extension SQLValue {
    var databaseValue: DatabaseValue {
        switch self {
        case .null: .null
        case .int(let number): number.databaseValue
        case .double(let number): number.databaseValue
        case .text(let text): text.databaseValue
        case .blob(let bytes): Data(bytes).databaseValue
        }
    }
}

extension SQLValue {
    /// The value SQLite returned for a result column.
    init(_ value: DatabaseValue) {
        switch value.storage {
        case .null: self = .null
        case .int64(let number): self = .int(number)
        case .double(let number): self = .double(number)
        case .string(let text): self = .text(text)
        case .blob(let data): self = .blob(Array(data))
        }
    }
}
