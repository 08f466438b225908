import CirrusModel
import CirrusSQL
import CirrusSQLAdapter
import CirrusStorage
import GRDB

extension SQLiteStorageAdapter {
    public func account(userId: String) async throws -> StoredAccount? {
        let statement = AccountStatements(dialect: dialect).account(userId: userId)
        return try await pool.read { db in
            guard let row = try self.rows(db, statement).first else { return nil }
            let failures: [Timestamp]
            if case .array(let stamps)? = try? JSONParser.parse(Array((row[2] as String? ?? "[]").utf8)) {
                failures = stamps.compactMap { $0.intValue.map { Timestamp(millisecondsSince1970: $0) } }
            } else {
                failures = []
            }
            let lockedUntil: Int64? = row[3]
            return StoredAccount(
                userId: row[0], password: row[1], failures: failures, lockedUntil: lockedUntil.map { Timestamp(millisecondsSince1970: $0) }
            )
        }
    }

    public func session(token: String) async throws -> StoredSession? {
        let statement = AccountStatements(dialect: dialect).session(token: token)
        return try await pool.read { db in try self.rows(db, statement).first.flatMap(Self.session) }
    }

    public func sessions(userId: String) async throws -> [StoredSession] {
        let statement = AccountStatements(dialect: dialect).sessions(userId: userId)
        return try await pool.read { db in try self.rows(db, statement).compactMap(Self.session) }
    }

    public func passwords(userIds: [String]) async throws -> [String: String] {
        guard !userIds.isEmpty else { return [:] }
        let statement = AccountStatements(dialect: dialect).passwords(userIds: userIds)
        return try await pool.read { db in
            var passwords: [String: String] = [:]
            for row in try self.rows(db, statement) {
                if let id = row[0] as String?, let password = row[1] as String? { passwords[id] = password }
            }
            return passwords
        }
    }

    public func sessions(userIds: [String]) async throws -> [StoredSession] {
        guard !userIds.isEmpty else { return [] }
        let statement = AccountStatements(dialect: dialect).sessions(userIds: userIds)
        return try await pool.read { db in try self.rows(db, statement).compactMap(Self.session) }
    }

    public func roleNames(userId: String) async throws -> [String] {
        try await pool.read { db in
            guard let roleTable = try self.existingTable(for: "_Role", db) else { return [] }
            let statement = AccountStatements(dialect: self.dialect).roleNames(userId: userId, roleTable: roleTable)
            return try self.rows(db, statement).compactMap { $0[0] as String? }
        }
    }

    public func code(purpose: String, target: String) async throws -> StoredCode? {
        let statement = AccountStatements(dialect: dialect).code(purpose: purpose, target: target)
        return try await pool.read { db in try self.rows(db, statement).first.map(Self.code) }
    }

    public func codes(purpose: String, code: String) async throws -> [StoredCode] {
        let statement = AccountStatements(dialect: dialect).codes(purpose: purpose, code: code)
        return try await pool.read { db in try self.rows(db, statement).map(Self.code) }
    }

    public func sendCount(target: String, since: Timestamp) async throws -> Int {
        let statement = AccountStatements(dialect: dialect).sendCount(target: target, since: since)
        return try await pool.read { db in try self.rows(db, statement).first?[0] ?? 0 }
    }

    public func linkedUser(platform: String, uid: String) async throws -> StoredObject? {
        try await pool.read { db in
            guard let table = try self.existingTable(for: "_User", db) else { return nil }
            let statement = AccountStatements(dialect: self.dialect).linkedUser(platform: platform, uid: uid, userTable: table)
            return try self.rows(db, statement).first.map { try StoredRow.decode($0.sqlValues, className: "_User").object }
        }
    }

    public func user(email: String) async throws -> StoredObject? {
        try await pool.read { db in
            guard let table = try self.existingTable(for: "_User", db) else { return nil }
            let statement = AccountStatements(dialect: self.dialect).user(email: email, userTable: table)
            return try self.rows(db, statement).first.map { try StoredRow.decode($0.sqlValues, className: "_User").object }
        }
    }

    public func caseDuplicateEmails(limit: Int) async throws -> [String] {
        try await pool.read { db in
            guard let table = try self.existingTable(for: "_User", db) else { return [] }
            guard try self.rows(db, self.dialect.indexExists(SystemSchema.lowerEmailIndexName(userTable: table))).isEmpty else { return [] }
            let statement = SystemSchema.caseDuplicateEmails(self.dialect, userTable: table, limit: limit)
            return try String.fetchAll(db, sql: statement)
        }
    }

    /// Runs SQL as it is, for tests that turn a database into one an older Cirrus wrote.
    package func execute(rawSQL sql: String) async throws {
        try await pool.write { try $0.execute(sql: sql) }
    }

    /// Applies the pending ``SystemSchema/userTableMigrations(_:)`` in the migrations' transaction: to the `_User`
    /// table if there is one (a blocked migration waits for the next start), else only records them.
    func migrateUserTable(_ db: Database, applied: Set<String>) throws {
        let pending = SystemSchema.userTableMigrations(dialect).filter { !applied.contains($0.name) }
        guard !pending.isEmpty else { return }
        let table = try rows(db, RegistryStatements(dialect: dialect).findClass("_User")).first.map { $0[1] as String }
        for migration in pending {
            if let table {
                if let blockers = migration.blockers, try !Row.fetchAll(db, sql: blockers(table)).isEmpty { continue }
                for statement in migration.statements(table) { try db.execute(sql: statement) }
            }
            try execute(db, MigrationStatements(dialect: dialect).record(migration.name, at: Timestamp.now()))
        }
    }

    private static func code(_ row: Row) -> StoredCode {
        let data: String? = row[7]
        return StoredCode(
            purpose: row[0], target: row[1], code: row[2], userId: row[3], createdAt: Timestamp(millisecondsSince1970: row[4]),
            expiresAt: Timestamp(millisecondsSince1970: row[5]), attempts: row[6], data: data.flatMap { try? JSONParser.parse(Array($0.utf8)) }
        )
    }

    private static func session(_ row: Row) -> StoredSession? {
        guard let kind = StoredSession.Kind(rawValue: row[3]) else { return nil }
        let expiresAt: Int64? = row[5]
        let createdWith: String? = row[7]
        return StoredSession(
            token: row[0], sessionId: row[1], userId: row[2], kind: kind, createdAt: Timestamp(millisecondsSince1970: row[4]),
            expiresAt: expiresAt.map { Timestamp(millisecondsSince1970: $0) }, installationId: row[6],
            createdWith: createdWith.flatMap { try? JSONParser.parse(Array($0.utf8)) }
        )
    }
}
