package import CirrusModel

/// Statements over the account tables: stored passwords with their lock-out state, and sessions; and the
/// recursive query that finds the roles a user holds.
package struct AccountStatements: Sendable {
    package let dialect: any SQLDialect

    package init(dialect: any SQLDialect) {
        self.dialect = dialect
    }

    private var credentials: String { dialect.quote(SystemSchema.credentialsTable) }
    private var sessions: String { dialect.quote(SystemSchema.sessionsTable) }
    private var relations: String { dialect.quote(SystemSchema.relationsTable) }

    /// Columns: user_id, password, failures (JSON array of milliseconds), locked_until.
    package func account(userId: String) -> SQLFragment {
        "SELECT \"user_id\", \"password\", \"failures\", \"locked_until\" FROM \(raw: credentials) WHERE \"user_id\" = \(bind: .text(userId))"
    }

    package func setPassword(userId: String, password: String?) -> SQLFragment {
        let value: SQLValue = password.map(SQLValue.text) ?? .null
        return "INSERT INTO \(raw: credentials) (\"user_id\", \"password\") VALUES (\(bind: .text(userId)), \(bind: value)) "
            + "ON CONFLICT (\"user_id\") DO UPDATE SET \"password\" = excluded.\"password\""
    }

    package func setLockout(userId: String, failures: [Timestamp], lockedUntil: Timestamp?) -> SQLFragment {
        let list = "[" + failures.map { String($0.millisecondsSince1970) }.joined(separator: ",") + "]"
        let until: SQLValue = lockedUntil.map { .int($0.millisecondsSince1970) } ?? .null
        return "INSERT INTO \(raw: credentials) (\"user_id\", \"failures\", \"locked_until\") VALUES (\(bind: .text(userId)), "
            + "\(bind: .text(list)), \(bind: until)) ON CONFLICT (\"user_id\") DO UPDATE SET \"failures\" = excluded.\"failures\", "
            + "\"locked_until\" = excluded.\"locked_until\""
    }

    /// Appends one failure time to the list in the same statement, so that concurrent attempts never lose one.
    package func appendFailure(userId: String, at time: Timestamp) -> SQLFragment {
        let appended = dialect.appendingNumber("\(bind: .int(time.millisecondsSince1970))", toArrayText: credentials + ".\"failures\"")
        return "INSERT INTO \(raw: credentials) (\"user_id\", \"failures\") VALUES (\(bind: .text(userId)), "
            + "\(bind: .text("[\(time.millisecondsSince1970)]"))) ON CONFLICT (\"user_id\") DO UPDATE SET \"failures\" = \(appended)"
    }

    /// What deleting objects of `className` also removes: the account rows, sessions and third-party links of deleted
    /// users; nothing for other classes.
    package func deletingAccounts(of className: String, userIds: [String]) -> [SQLFragment] {
        guard className == "_User", !userIds.isEmpty else { return [] }
        let ids = userIds.map { SQLFragment.bind(.text($0)) }.joined(separator: ", ")
        return [
            "DELETE FROM \(raw: credentials) WHERE \"user_id\" IN (\(ids))",
            "DELETE FROM \(raw: sessions) WHERE \"user_id\" IN (\(ids))",
            "DELETE FROM \(raw: links) WHERE \"user_id\" IN (\(ids))",
        ]
    }

    private var links: String { dialect.quote(SystemSchema.authLinksTable) }

    /// Links an account to a user in place of the user's link of that platform; the unique index on
    /// `(platform, uid)` refuses an account another user holds.
    package func linkAccount(userId: String, platform: String, uid: String) -> SQLFragment {
        "INSERT INTO \(raw: links) (\"user_id\", \"platform\", \"uid\") VALUES (\(bind: .text(userId)), \(bind: .text(platform)), "
            + "\(bind: .text(uid))) ON CONFLICT (\"user_id\", \"platform\") DO UPDATE SET \"uid\" = excluded.\"uid\""
    }

    /// Unlinks a user's account of `platform`, or every account of the user.
    package func unlinkAccount(userId: String, platform: String?) -> SQLFragment {
        var statement: SQLFragment = "DELETE FROM \(raw: links) WHERE \"user_id\" = \(bind: .text(userId))"
        if let platform { statement.append(" AND \"platform\" = \(bind: .text(platform))") }
        return statement
    }

    /// The object columns of the user holding an account, found through the links' unique index.
    package func linkedUser(platform: String, uid: String, userTable: String) -> SQLFragment {
        "SELECT \(raw: ObjectStatements(dialect: dialect, table: userTable).columns) FROM \(raw: dialect.quote(userTable)) WHERE \"id\" = "
            + "(SELECT \"user_id\" FROM \(raw: links) WHERE \"platform\" = \(bind: .text(platform)) AND \"uid\" = \(bind: .text(uid)))"
    }

    /// The object columns of the user whose e-mail is `email` ignoring ASCII case, the one spelled exactly so first,
    /// then the oldest; read through the case-insensitive unique index.
    package func user(email: String, userTable: String) -> SQLFragment {
        let lower = SystemSchema.lowerEmail(dialect)
        let exact = dialect.stringValue(dialect.target(column: "data", path: FieldPath(field: "email")))
        let given = dialect.asciiLowercased(dialect.textParameter(email))
        return "SELECT \(raw: ObjectStatements(dialect: dialect, table: userTable).columns) FROM \(raw: dialect.quote(userTable)) "
            + "WHERE \(raw: lower) = \(given) ORDER BY CASE WHEN \(exact) = \(bind: .text(email)) THEN 0 ELSE 1 END, \"created_at\" LIMIT 1"
    }

    static let sessionColumns = "\"token\", \"session_id\", \"user_id\", \"kind\", \"created_at\", \"expires_at\", \"installation_id\", \"created_with\""

    /// Columns: token, session_id, user_id, kind, created_at, expires_at, installation_id, created_with.
    package func session(token: String) -> SQLFragment {
        "SELECT \(raw: Self.sessionColumns) FROM \(raw: sessions) WHERE \"token\" = \(bind: .text(token))"
    }

    /// Columns: user_id, password; the users of `userIds` that have a password.
    package func passwords(userIds: [String]) -> SQLFragment {
        "SELECT \"user_id\", \"password\" FROM \(raw: credentials) WHERE \"password\" IS NOT NULL AND \"user_id\" IN (\(Self.list(userIds)))"
    }

    /// The sessions of several users, by user then oldest first; same columns as ``session(token:)``.
    package func sessions(userIds: [String]) -> SQLFragment {
        "SELECT \(raw: Self.sessionColumns) FROM \(raw: sessions) WHERE \"user_id\" IN (\(Self.list(userIds))) ORDER BY \"user_id\", \"created_at\", \"token\""
    }

    private static func list(_ ids: [String]) -> SQLFragment {
        ids.isEmpty ? "NULL" : ids.map { SQLFragment.bind(.text($0)) }.joined(separator: ", ")
    }

    /// The sessions of a user, oldest first; same columns as ``session(token:)``.
    package func sessions(userId: String) -> SQLFragment {
        "SELECT \(raw: Self.sessionColumns) FROM \(raw: sessions) WHERE \"user_id\" = \(bind: .text(userId)) ORDER BY \"created_at\", \"token\""
    }

    package func insertSession(
        token: String, sessionId: String, userId: String, kind: String, createdAt: Timestamp, expiresAt: Timestamp?,
        installationId: String?, createdWith: String?
    ) -> SQLFragment {
        let expiry: SQLValue = expiresAt.map { .int($0.millisecondsSince1970) } ?? .null
        return "INSERT INTO \(raw: sessions) (\(raw: Self.sessionColumns)) VALUES (\(bind: .text(token)), \(bind: .text(sessionId)), "
            + "\(bind: .text(userId)), \(bind: .text(kind)), \(bind: .int(createdAt.millisecondsSince1970)), \(bind: expiry), "
            + "\(bind: installationId.map(SQLValue.text) ?? .null), \(bind: createdWith.map(SQLValue.text) ?? .null))"
    }

    package func deleteSession(token: String) -> SQLFragment {
        "DELETE FROM \(raw: sessions) WHERE \"token\" = \(bind: .text(token))"
    }

    package func deleteSessions(userId: String, kind: String?, keeping: String?) -> SQLFragment {
        var statement: SQLFragment = "DELETE FROM \(raw: sessions) WHERE \"user_id\" = \(bind: .text(userId))"
        if let kind { statement.append(" AND \"kind\" = \(bind: .text(kind))") }
        if let keeping { statement.append(" AND \"token\" <> \(bind: .text(keeping))") }
        return statement
    }

    private var codes: String { dialect.quote(SystemSchema.codesTable) }
    private var sends: String { dialect.quote(SystemSchema.sendsTable) }

    static let codeColumns = "\"purpose\", \"target\", \"code\", \"user_id\", \"created_at\", \"expires_at\", \"attempts\", \"data\""

    /// Columns: purpose, target, code, user_id, created_at, expires_at, attempts, data.
    package func code(purpose: String, target: String) -> SQLFragment {
        "SELECT \(raw: Self.codeColumns) FROM \(raw: codes) WHERE \"purpose\" = \(bind: .text(purpose)) AND \"target\" = \(bind: .text(target))"
    }

    /// Same columns as ``code(purpose:target:)``.
    package func codes(purpose: String, code: String) -> SQLFragment {
        "SELECT \(raw: Self.codeColumns) FROM \(raw: codes) WHERE \"purpose\" = \(bind: .text(purpose)) AND \"code\" = \(bind: .text(code)) "
            + "ORDER BY \"created_at\" DESC"
    }

    package func saveCode(
        purpose: String, target: String, code: String, userId: String?, createdAt: Timestamp, expiresAt: Timestamp, data: String?
    ) -> SQLFragment {
        "INSERT INTO \(raw: codes) (\(raw: Self.codeColumns)) VALUES (\(bind: .text(purpose)), \(bind: .text(target)), \(bind: .text(code)), "
            + "\(bind: userId.map(SQLValue.text) ?? .null), \(bind: .int(createdAt.millisecondsSince1970)), "
            + "\(bind: .int(expiresAt.millisecondsSince1970)), 0, \(bind: data.map(SQLValue.text) ?? .null)) ON CONFLICT (\"purpose\", \"target\") "
            + "DO UPDATE SET \"code\" = excluded.\"code\", \"user_id\" = excluded.\"user_id\", \"created_at\" = excluded.\"created_at\", "
            + "\"expires_at\" = excluded.\"expires_at\", \"attempts\" = 0, \"data\" = excluded.\"data\""
    }

    package func deleteCode(purpose: String, target: String) -> SQLFragment {
        "DELETE FROM \(raw: codes) WHERE \"purpose\" = \(bind: .text(purpose)) AND \"target\" = \(bind: .text(target))"
    }

    package func countCodeAttempt(purpose: String, target: String) -> SQLFragment {
        "UPDATE \(raw: codes) SET \"attempts\" = \"attempts\" + 1 WHERE \"purpose\" = \(bind: .text(purpose)) AND \"target\" = \(bind: .text(target))"
    }

    /// Records a send and forgets the target's sends older than `forgetBefore`.
    package func recordSend(target: String, at time: Timestamp, forgetBefore: Timestamp) -> [SQLFragment] {
        [
            "DELETE FROM \(raw: sends) WHERE \"target\" = \(bind: .text(target)) AND \"sent_at\" < \(bind: .int(forgetBefore.millisecondsSince1970))",
            "INSERT INTO \(raw: sends) (\"target\", \"sent_at\") VALUES (\(bind: .text(target)), \(bind: .int(time.millisecondsSince1970)))",
        ]
    }

    package func sendCount(target: String, since: Timestamp) -> SQLFragment {
        "SELECT COUNT(*) FROM \(raw: sends) WHERE \"target\" = \(bind: .text(target)) AND \"sent_at\" >= \(bind: .int(since.millisecondsSince1970))"
    }

    /// The names of the roles `userId` holds, in `roleTable` (the `_Role` class's table): the roles whose `users`
    /// relation lists the user, then every role whose `roles` relation lists a role already found. `UNION`
    /// keeps each role once, so cycles end.
    package func roleNames(userId: String, roleTable: String) -> SQLFragment {
        let name = dialect.stringValue(dialect.target(column: ConditionCompiler.documentColumn, path: FieldPath(field: "name")))
        return "WITH RECURSIVE \"held\"(\"id\") AS (SELECT \"owner_id\" FROM \(raw: relations) WHERE \"owner_class\" = '_Role' "
            + "AND \"field\" = 'users' AND \"target_id\" = \(bind: .text(userId)) UNION SELECT \"r\".\"owner_id\" FROM \(raw: relations) "
            + "AS \"r\" JOIN \"held\" ON \"r\".\"target_id\" = \"held\".\"id\" WHERE \"r\".\"owner_class\" = '_Role' "
            + "AND \"r\".\"field\" = 'roles') SELECT \(name) FROM \(raw: dialect.quote(roleTable)) WHERE \"id\" IN (SELECT \"id\" FROM \"held\") "
            + "ORDER BY 1"
    }
}
