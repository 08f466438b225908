/// What the system tables' statements need of PostgreSQL (``SystemSchema``, ``AccountStatements``).
extension PostgresDialect {
    package func asciiLowercased(_ text: SQLFragment) -> SQLFragment {
        "lower(\(text) COLLATE \"C\")"
    }

    package func textParameter(_ text: String) -> SQLFragment {
        "\(bind: .text(text))::text"
    }

    package func appendingNumber(_ number: SQLFragment, toArrayText column: String) -> SQLFragment {
        "(\(raw: column)::jsonb || to_jsonb(\(number)::bigint))::text"
    }

    package func indexExists(_ name: String) -> SQLFragment {
        "SELECT 1 WHERE to_regclass(\(bind: .text(quote(name)))) IS NOT NULL"
    }

    package func linkedAccounts(ofUsersIn users: String) -> String {
        let id = ["uid", "openid", "id"].map { key in
            "CASE jsonb_typeof(\"p\".value -> '\(key)') WHEN 'string' THEN NULLIF(\"p\".value ->> '\(key)', '') "
                + "WHEN 'number' THEN CASE WHEN (\"p\".value ->> '\(key)') ~ '^-?[0-9]+(\\.0+)?$' "
                + "THEN split_part(\"p\".value ->> '\(key)', '.', 1) END END"
        }.joined(separator: ", ")
        return "SELECT \"u\".\"id\", \"p\".key, COALESCE(\(id)) FROM \(users) AS \"u\", jsonb_each(CASE WHEN "
            + "jsonb_typeof(\"u\".\"data\" -> 'authData') = 'object' THEN \"u\".\"data\" -> 'authData' ELSE '{}'::jsonb END) AS \"p\" "
            + "WHERE jsonb_typeof(\"p\".value) = 'object' AND COALESCE(\(id)) IS NOT NULL"
    }

    /// A transaction-scoped advisory lock per schema: of several instances starting at once, one migrates.
    package var migrationLock: SQLFragment? {
        "SELECT pg_advisory_xact_lock(hashtextextended('cirrus-migrations:' || current_schema(), 0))"
    }

    /// A transaction-scoped advisory lock per key and schema.
    package func transactionLock(_ key: String) -> SQLFragment? {
        "SELECT pg_advisory_xact_lock(hashtextextended(current_schema() || ':' || \(bind: .text(key)), 0))"
    }

    package var rowLockClause: String? { "FOR UPDATE" }

    /// `EXPLAIN` with sequential scans discouraged: whether an index *can* answer, however few rows the table holds.
    package func queryPlan(of statement: SQLFragment) -> (setup: [SQLFragment], explain: SQLFragment, detailColumn: Int) {
        (["SET LOCAL enable_seqscan = off"], "EXPLAIN " + statement, 0)
    }
}

/// What the PostgreSQL store asks of a primary and its streaming replica (``PostgresDriver``).
extension PostgresDialect {
    /// The primary's current write-ahead-log position, as text.
    package static let walPosition: SQLFragment = "SELECT pg_current_wal_lsn()::text"

    /// One row of `TRUE` (1) when the replica has replayed the log up to `position`.
    package static func hasReplayed(_ position: String) -> SQLFragment {
        "SELECT COALESCE(pg_last_wal_replay_lsn() >= \(bind: .text(position))::pg_lsn, FALSE)"
    }
}

/// The change notices between instances sharing a database (`LISTEN`/`NOTIFY`).
extension PostgresDialect {
    /// The schema the connection's statements use.
    package static let currentSchema: SQLFragment = "SELECT current_schema()"

    /// One statement that sends each payload on `channel`, prefixed with the schema (instances serving another schema
    /// of the same database ignore it).
    package static func notify(_ channel: String, _ payloads: [String]) -> SQLFragment {
        let calls: [SQLFragment] = payloads.map { "pg_notify(\(bind: .text(channel)), current_schema() || ' ' || \(bind: .text($0)))" }
        return SQLFragment("SELECT ") + calls.joined(separator: ", ")
    }
}
