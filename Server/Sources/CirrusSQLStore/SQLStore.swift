import CirrusModel
package import CirrusSQL
package import CirrusStorage

/// The SQL store, written once for every SQL engine: each class has its own table (`o_<class>`) of documents,
/// registered in `_cirrus_classes`; field types live in `_cirrus_fields`, relation members in `_cirrus_relations`,
/// and accounts (passwords, sessions, codes, links) in their own tables. Every query, aggregate, ACL predicate and
/// atomic operation runs as SQL in the driver's dialect (``CirrusSQL``); the driver only runs statements.
///
/// A new SQL engine needs a ``SQLDialect`` and a ``SQLDriver``, nothing else.
package final class SQLStore<Driver: SQLDriver>: StorageAdapter {
    package let driver: Driver
    let tables = TableDirectory()
    private let closeOnce = OnceFlag()
    /// Told about every read, lookup and transaction (the server's metrics).
    let observations = StoreObservation()
    package var observation: StoreObservation? { observations }

    package init(driver: Driver) {
        self.driver = driver
    }

    var dialect: Driver.Dialect { driver.dialect }
    var registry: RegistryStatements { RegistryStatements(dialect: dialect) }

    /// Applies the pending migrations of the system tables, in one transaction (under the dialect's migration lock, so
    /// that of several instances starting at once one migrates and the others then find the migrations applied).
    package func prepare() async throws {
        try await driver.open()
        try await writing { session in
            if let lock = self.dialect.migrationLock { try await session.execute(lock) }
            let bookkeeping = MigrationStatements(dialect: self.dialect)
            try await session.execute(bookkeeping.bootstrap)
            let applied = Set(try await session.rows(bookkeeping.applied).compactMap { $0.first?.text })
            for migration in SystemSchema.migrations(self.dialect) where !applied.contains(migration.name) {
                for statement in migration.statements { try await session.execute("\(raw: statement)") }
                try await session.execute(bookkeeping.record(migration.name, at: Timestamp.now()))
            }
            try await self.migrateSystemTables(session, applied: applied)
        }
        try await driver.start()
    }

    /// Applies the pending ``SystemSchema/tableMigrations(_:)`` in the migrations' transaction: to its class's table
    /// if there is one (a blocked migration waits for the next start), else only records it.
    private func migrateSystemTables(_ session: Driver.Session, applied: Set<String>) async throws {
        let pending = SystemSchema.tableMigrations(dialect).filter { !applied.contains($0.name) }
        for migration in pending {
            if let table = try await session.rows(registry.findClass(migration.className)).first?[1].text {
                if let blockers = migration.blockers, try await !session.rows("\(raw: blockers(table))").isEmpty { continue }
                for statement in migration.statements(table) { try await session.execute("\(raw: statement)") }
            }
            try await session.execute(MigrationStatements(dialect: dialect).record(migration.name, at: Timestamp.now()))
        }
    }

    /// Releases the driver's connections; closing twice is a no-op.
    package func close() async throws {
        guard closeOnce.claim() else { return }
        try await driver.close()
    }

    /// Runs `body` as one read, turning the engine's errors into ``StorageError``s that say what failed, and failures
    /// the request caused into their ``APIError``.
    func reading<T: Sendable>(
        replica: Bool = false, lookup: Bool = false, _ body: @escaping @Sendable (Driver.Session) async throws -> T
    ) async throws -> T {
        do {
            return try await observations.observe(lookup ? .lookup : .read) {
                try await collect({ try await self.driver.read(replica: replica, lookup: lookup, $0) }, body)
            }
        } catch {
            throw failure(error)
        }
    }

    /// Runs `body` in a transaction, with the errors of ``reading(replica:_:)``.
    func writing<T: Sendable>(_ body: @escaping @Sendable (Driver.Session) async throws -> T) async throws -> T {
        do {
            return try await observations.observe(.transaction) { try await collect(driver.transaction, body) }
        } catch {
            throw failure(error)
        }
    }

    /// What `body` returns, run by `access` (a driver's read or transaction).
    func collect<T: Sendable>(
        _ access: (@escaping @Sendable (Driver.Session) async throws -> Void) async throws -> Void,
        _ body: @escaping @Sendable (Driver.Session) async throws -> T
    ) async throws -> T {
        let outcome = Outcome<T>()
        try await access { outcome.value = try await body($0) }
        guard let value = outcome.value else { throw StorageError.database("the database access ended without running its work") }
        return value
    }

    /// What the caller is told of an error: the store's and the client's as they are, the engine's as a refusal or a
    /// ``StorageError/database(_:)`` that says what failed.
    func failure(_ error: any Error) -> any Error {
        if error is StorageError || error is APIError || error is CancellationError { return error }
        if let refusal = driver.refusal(error) { return refusal }
        return StorageError.database(driver.describe(error))
    }

    /// Runs SQL as it is, for tests that turn a database into one an older Cirrus wrote.
    package func execute(rawSQL sql: String) async throws {
        try await writing { try await $0.execute("\(raw: sql)") }
    }

    /// The rows of a statement run as a read, with a read's errors; for tests.
    package func rows(_ fragment: SQLFragment) async throws -> [[SQLValue]] {
        try await reading { try await $0.rows(fragment) }
    }

    /// The table of a class, read from the directory or the registry; `nil` if the class does not exist.
    func existingTable(for className: String, _ session: Driver.Session) async throws -> String? {
        if let table = tables.table(for: className) { return table }
        guard let table = try await session.rows(registry.findClass(className)).first?[1].text else { return nil }
        tables.record(className: className, table: table)
        return table
    }
}

/// What a store's work returned, set by the work before its access ends and read after.
final class Outcome<T>: @unchecked Sendable {
    var value: T?
}

extension SQLStore {
    package var changeLog: ChangeLog { driver.changeLog }

    package func append(_ records: [ChangeRecord]) async throws {
        do {
            try await driver.append(records)
        } catch {
            throw failure(error)
        }
    }

    package func announce(_ notice: ChangeNotice) async {
        await driver.announce(notice)
    }

    package func notices() -> AsyncStream<ChangeNotice> {
        driver.notices()
    }
}
