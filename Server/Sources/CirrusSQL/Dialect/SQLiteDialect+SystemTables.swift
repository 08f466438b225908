/// What the system tables' statements need of SQLite (``SystemSchema``, ``AccountStatements``).
extension SQLiteDialect {
    /// None: the functions SQLite's SQL calls are registered by its adapter on each connection.
    package var dialectMigrations: [SystemSchema.Migration] { [] }

    /// SQLite's built-in `lower` changes ASCII letters only.
    package func asciiLowercased(_ text: SQLFragment) -> SQLFragment {
        "lower(\(text))"
    }

    package func textParameter(_ text: String) -> SQLFragment {
        "\(bind: .text(text))"
    }

    package func appendingNumber(_ number: SQLFragment, toArrayText column: String) -> SQLFragment {
        "json_insert(\(raw: column), '$[#]', \(number))"
    }

    package func indexExists(_ name: String) -> SQLFragment {
        "SELECT 1 FROM sqlite_master WHERE \"type\" = 'index' AND \"name\" = \(bind: .text(name))"
    }

    package func linkedAccounts(ofUsersIn users: String) -> String {
        let id = ["uid", "openid", "id"].map { key in
            "CASE json_type(\"p\".value, '$.\(key)') WHEN 'text' THEN NULLIF(json_extract(\"p\".value, '$.\(key)'), '') "
                + "WHEN 'integer' THEN CAST(json_extract(\"p\".value, '$.\(key)') AS TEXT) "
                + "WHEN 'real' THEN CASE WHEN json_extract(\"p\".value, '$.\(key)') = CAST(json_extract(\"p\".value, '$.\(key)') AS INTEGER) "
                + "THEN CAST(CAST(json_extract(\"p\".value, '$.\(key)') AS INTEGER) AS TEXT) END END"
        }.joined(separator: ", ")
        return "SELECT \"u\".\"id\", \"p\".key, COALESCE(\(id)) FROM \(users) AS \"u\", json_each(\"u\".\"data\", '$.authData') AS \"p\" "
            + "WHERE \"p\".type = 'object' AND COALESCE(\(id)) IS NOT NULL"
    }

    /// None: one process writes the file, through one writer connection.
    package var migrationLock: SQLFragment? { nil }

    package func transactionLock(_ key: String) -> SQLFragment? { nil }

    package var rowLockClause: String? { nil }

    /// `EXPLAIN QUERY PLAN`; the read before it reloads the connection's schema (EXPLAIN reads nothing, so it would
    /// plan with a cached schema that lacks an index another connection has just added).
    package func queryPlan(of statement: SQLFragment) -> (setup: [SQLFragment], explain: SQLFragment, detailColumn: Int) {
        (["SELECT COUNT(*) FROM sqlite_master"], "EXPLAIN QUERY PLAN " + statement, 3)
    }
}
