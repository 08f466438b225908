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
    }

    /// A read on one of the reader connections (SQLite has no replica).
    package func read(replica: Bool, _ body: @escaping @Sendable (SQLiteSession) async throws -> Void) async throws {
        try await pool.read { db in
            let session = SQLiteSession(db: db, dialect: dialect)
            return try ConnectionExecutor.run { try await body(session) }
        }
    }

    /// A transaction on the writer connection.
    package func transaction(_ body: @escaping @Sendable (SQLiteSession) async throws -> Void) async throws {
        try await pool.write { db in
            let session = SQLiteSession(db: db, dialect: dialect)
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

    package func rows(_ fragment: SQLFragment) async throws -> [[SQLValue]] {
        let (sql, bindings) = try dialect.renderForDatabase(fragment)
        return try Row.fetchAll(db, sql: sql, arguments: StatementArguments(bindings.map(\.databaseValue))).map { row in
            (0..<row.count).map { SQLValue(row[$0] as DatabaseValue) }
        }
    }

    package func execute(_ fragment: SQLFragment) async throws {
        let (sql, bindings) = try dialect.renderForDatabase(fragment)
        try db.execute(sql: sql, arguments: StatementArguments(bindings.map(\.databaseValue)))
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
