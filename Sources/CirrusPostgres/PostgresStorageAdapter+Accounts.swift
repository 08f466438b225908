import CirrusModel
import CirrusSQL
import CirrusSQLAdapter
import CirrusStorage
import PostgresNIO

extension PostgresStorageAdapter {
    public func account(userId: String) async throws -> StoredAccount? {
        let statement = AccountStatements(dialect: dialect).account(userId: userId)
        return try await read { connection in
            guard let row = try await self.rows(connection, statement).first, let id = row[0].text else { return nil }
            var failures: [Timestamp] = []
            if case .array(let stamps)? = try? JSONParser.parse(Array((row[2].text ?? "[]").utf8)) {
                failures = stamps.compactMap { $0.intValue.map { Timestamp(millisecondsSince1970: $0) } }
            }
            return StoredAccount(userId: id, password: row[1].text, failures: failures, lockedUntil: row[3].integer.map { Timestamp(millisecondsSince1970: $0) })
        }
    }

    public func session(token: String) async throws -> StoredSession? {
        let statement = AccountStatements(dialect: dialect).session(token: token)
        return try await read { connection in try await self.rows(connection, statement).first.flatMap(Self.session) }
    }

    public func sessions(userId: String) async throws -> [StoredSession] {
        let statement = AccountStatements(dialect: dialect).sessions(userId: userId)
        return try await read { connection in try await self.rows(connection, statement).compactMap(Self.session) }
    }

    public func passwords(userIds: [String]) async throws -> [String: String] {
        guard !userIds.isEmpty else { return [:] }
        let statement = AccountStatements(dialect: dialect).passwords(userIds: userIds)
        return try await read { connection in
            var passwords: [String: String] = [:]
            for row in try await self.rows(connection, statement) {
                if let id = row[0].text, let password = row[1].text { passwords[id] = password }
            }
            return passwords
        }
    }

    public func sessions(userIds: [String]) async throws -> [StoredSession] {
        guard !userIds.isEmpty else { return [] }
        let statement = AccountStatements(dialect: dialect).sessions(userIds: userIds)
        return try await read { connection in try await self.rows(connection, statement).compactMap(Self.session) }
    }

    public func roleNames(userId: String) async throws -> [String] {
        try await read { connection in
            guard let roleTable = try await self.existingTable(for: "_Role", connection) else { return [] }
            let statement = AccountStatements(dialect: self.dialect).roleNames(userId: userId, roleTable: roleTable)
            return try await self.rows(connection, statement).compactMap { $0.first?.text }
        }
    }

    public func code(purpose: String, target: String) async throws -> StoredCode? {
        let statement = AccountStatements(dialect: dialect).code(purpose: purpose, target: target)
        return try await read { connection in try await self.rows(connection, statement).first.flatMap(Self.code) }
    }

    public func codes(purpose: String, code: String) async throws -> [StoredCode] {
        let statement = AccountStatements(dialect: dialect).codes(purpose: purpose, code: code)
        return try await read { connection in try await self.rows(connection, statement).compactMap(Self.code) }
    }

    public func sendCount(target: String, since: Timestamp) async throws -> Int {
        let statement = AccountStatements(dialect: dialect).sendCount(target: target, since: since)
        return try await read { connection in try await self.rows(connection, statement).first?.first?.integer.map(Int.init) ?? 0 }
    }

    public func linkedUser(platform: String, uid: String) async throws -> StoredObject? {
        try await read { connection in
            guard let table = try await self.existingTable(for: "_User", connection) else { return nil }
            let statement = AccountStatements(dialect: self.dialect).linkedUser(platform: platform, uid: uid, userTable: table)
            return try await self.rows(connection, statement).first.map { try StoredRow.decode($0, className: "_User").object }
        }
    }

    public func user(email: String) async throws -> StoredObject? {
        try await read { connection in
            guard let table = try await self.existingTable(for: "_User", connection) else { return nil }
            let statement = AccountStatements(dialect: self.dialect).user(email: email, userTable: table)
            return try await self.rows(connection, statement).first.map { try StoredRow.decode($0, className: "_User").object }
        }
    }

    public func caseDuplicateEmails(limit: Int) async throws -> [String] {
        try await read { connection in
            guard let table = try await self.existingTable(for: "_User", connection) else { return [] }
            guard try await self.rows(connection, self.dialect.indexExists(SystemSchema.lowerEmailIndexName(userTable: table))).isEmpty else { return [] }
            let statement = SystemSchema.caseDuplicateEmails(self.dialect, userTable: table, limit: limit)
            return try await self.rows(connection, "\(raw: statement)").compactMap { $0.first?.text }
        }
    }

    /// Runs SQL as it is, for tests that turn a database into one an older Cirrus wrote.
    package func execute(rawSQL sql: String) async throws {
        try await writing { try await self.execute($0, "\(raw: sql)") }
    }

    /// Applies the pending ``SystemSchema/userTableMigrations(_:)`` in the migrations' transaction (under its
    /// advisory lock): to the `_User` table if there is one (a blocked migration waits for the next start), else only
    /// records them.
    func migrateUserTable(_ connection: PostgresConnection, applied: Set<String>) async throws {
        let pending = SystemSchema.userTableMigrations(dialect).filter { !applied.contains($0.name) }
        guard !pending.isEmpty else { return }
        let table = try await rows(connection, RegistryStatements(dialect: dialect).findClass("_User")).first?[1].text
        for migration in pending {
            if let table {
                if let blockers = migration.blockers, try await !rows(connection, "\(raw: blockers(table))").isEmpty { continue }
                for statement in migration.statements(table) { try await execute(connection, "\(raw: statement)") }
            }
            try await execute(connection, MigrationStatements(dialect: dialect).record(migration.name, at: Timestamp.now()))
        }
    }

    private static func code(_ row: [SQLValue]) -> StoredCode? {
        guard let purpose = row[0].text, let target = row[1].text, let code = row[2].text, let created = row[4].integer,
            let expires = row[5].integer
        else { return nil }
        return StoredCode(
            purpose: purpose, target: target, code: code, userId: row[3].text, createdAt: Timestamp(millisecondsSince1970: created),
            expiresAt: Timestamp(millisecondsSince1970: expires), attempts: Int(row[6].integer ?? 0),
            data: row[7].text.flatMap { try? JSONParser.parse(Array($0.utf8)) }
        )
    }

    private static func session(_ row: [SQLValue]) -> StoredSession? {
        guard let token = row[0].text, let sessionId = row[1].text, let userId = row[2].text, let kind = row[3].text.flatMap(StoredSession.Kind.init),
            let created = row[4].integer
        else { return nil }
        return StoredSession(
            token: token, sessionId: sessionId, userId: userId, kind: kind, createdAt: Timestamp(millisecondsSince1970: created),
            expiresAt: row[5].integer.map { Timestamp(millisecondsSince1970: $0) }, installationId: row[6].text,
            createdWith: row[7].text.flatMap { try? JSONParser.parse(Array($0.utf8)) }
        )
    }
}
