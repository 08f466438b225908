package import CirrusModel
import CirrusSQL
package import CirrusStorage

/// What accounts keep beside the objects: passwords and lock-outs, sessions, roles, linked accounts, codes and sends.
extension SQLStore {
    var accounts: AccountStatements { AccountStatements(dialect: dialect) }

    package func account(userId: String) async throws -> StoredAccount? {
        let statement = accounts.account(userId: userId)
        return try await reading(lookup: true) { session in
            guard let row = try await session.rows(statement).first, let id = row[0].text else { return nil }
            var failures: [Timestamp] = []
            if case .array(let stamps)? = try? JSONParser.parse(Array((row[2].text ?? "[]").utf8)) {
                failures = stamps.compactMap { $0.intValue.map { Timestamp(millisecondsSince1970: $0) } }
            }
            return StoredAccount(userId: id, password: row[1].text, failures: failures, lockedUntil: row[3].integer.map { Timestamp(millisecondsSince1970: $0) })
        }
    }

    package func session(token: String) async throws -> StoredSession? {
        let statement = accounts.session(token: token)
        return try await reading(lookup: true) { try await $0.rows(statement).first.flatMap(Self.session) }
    }

    package func sessions(userId: String) async throws -> [StoredSession] {
        let statement = accounts.sessions(userId: userId)
        return try await reading(lookup: true) { try await $0.rows(statement).compactMap(Self.session) }
    }

    package func passwords(userIds: [String]) async throws -> [String: String] {
        guard !userIds.isEmpty else { return [:] }
        let statement = accounts.passwords(userIds: userIds)
        return try await reading { session in
            var passwords: [String: String] = [:]
            for row in try await session.rows(statement) {
                if let id = row[0].text, let password = row[1].text { passwords[id] = password }
            }
            return passwords
        }
    }

    package func sessions(userIds: [String]) async throws -> [StoredSession] {
        guard !userIds.isEmpty else { return [] }
        let statement = accounts.sessions(userIds: userIds)
        return try await reading { try await $0.rows(statement).compactMap(Self.session) }
    }

    package func roleNames(userId: String) async throws -> [String] {
        try await reading(lookup: true) { session in
            guard let roleTable = try await self.existingTable(for: "_Role", session) else { return [] }
            return try await session.rows(self.accounts.roleNames(userId: userId, roleTable: roleTable)).compactMap { $0.first?.text }
        }
    }

    package func code(purpose: String, target: String) async throws -> StoredCode? {
        let statement = accounts.code(purpose: purpose, target: target)
        return try await reading { try await $0.rows(statement).first.flatMap(Self.code) }
    }

    package func codes(purpose: String, code: String) async throws -> [StoredCode] {
        let statement = accounts.codes(purpose: purpose, code: code)
        return try await reading { try await $0.rows(statement).compactMap(Self.code) }
    }

    package func sendCount(target: String, since: Timestamp) async throws -> Int {
        let statement = accounts.sendCount(target: target, since: since)
        return try await reading { try await $0.rows(statement).first?.first?.integer.map(Int.init) ?? 0 }
    }

    package func linkedUser(platform: String, uid: String) async throws -> StoredObject? {
        try await user { self.accounts.linkedUser(platform: platform, uid: uid, userTable: $0) }
    }

    package func user(email: String) async throws -> StoredObject? {
        try await user { self.accounts.user(email: email, userTable: $0) }
    }

    /// The first user the statement made for the `_User` table finds; `nil` when there is none (or no table).
    private func user(_ statement: @escaping @Sendable (String) -> SQLFragment) async throws -> StoredObject? {
        try await reading { session in
            guard let table = try await self.existingTable(for: "_User", session) else { return nil }
            return try await session.rows(statement(table)).first.map { try StoredRow.decode($0, className: "_User").object }
        }
    }

    package func caseDuplicateEmails(limit: Int) async throws -> [String] {
        try await reading { session in
            guard let table = try await self.existingTable(for: "_User", session) else { return [] }
            guard try await session.rows(self.dialect.indexExists(SystemSchema.lowerEmailIndexName(userTable: table))).isEmpty else { return [] }
            let statement = SystemSchema.caseDuplicateEmails(self.dialect, userTable: table, limit: limit)
            return try await session.rows("\(raw: statement)").compactMap { $0.first?.text }
        }
    }

    /// A code from its row; `nil` for a row with a missing column.
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

    /// A session from its row; `nil` for a row with a missing column or an unknown kind.
    private static func session(_ row: [SQLValue]) -> StoredSession? {
        guard let token = row[0].text, let sessionId = row[1].text, let userId = row[2].text,
            let kind = row[3].text.flatMap(StoredSession.Kind.init), let created = row[4].integer
        else { return nil }
        return StoredSession(
            token: token, sessionId: sessionId, userId: userId, kind: kind, createdAt: Timestamp(millisecondsSince1970: created),
            expiresAt: row[5].integer.map { Timestamp(millisecondsSince1970: $0) }, installationId: row[6].text,
            createdWith: row[7].text.flatMap { try? JSONParser.parse(Array($0.utf8)) }
        )
    }
}
