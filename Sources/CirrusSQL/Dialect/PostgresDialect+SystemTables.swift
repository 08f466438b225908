/// What the system tables' statements need of PostgreSQL (``SystemSchema``, ``AccountStatements``).
extension PostgresDialect {
    public func asciiLowercased(_ text: SQLFragment) -> SQLFragment {
        "lower(\(text) COLLATE \"C\")"
    }

    public func textParameter(_ text: String) -> SQLFragment {
        "\(bind: .text(text))::text"
    }

    public func appendingNumber(_ number: SQLFragment, toArrayText column: String) -> SQLFragment {
        "(\(raw: column)::jsonb || to_jsonb(\(number)::bigint))::text"
    }

    public func indexExists(_ name: String) -> SQLFragment {
        "SELECT 1 WHERE to_regclass(\(bind: .text(quote(name)))) IS NOT NULL"
    }

    public func linkedAccounts(ofUsersIn users: String) -> String {
        let id = ["uid", "openid", "id"].map { key in
            "CASE jsonb_typeof(\"p\".value -> '\(key)') WHEN 'string' THEN NULLIF(\"p\".value ->> '\(key)', '') "
                + "WHEN 'number' THEN CASE WHEN (\"p\".value ->> '\(key)') ~ '^-?[0-9]+(\\.0+)?$' "
                + "THEN split_part(\"p\".value ->> '\(key)', '.', 1) END END"
        }.joined(separator: ", ")
        return "SELECT \"u\".\"id\", \"p\".key, COALESCE(\(id)) FROM \(users) AS \"u\", jsonb_each(CASE WHEN "
            + "jsonb_typeof(\"u\".\"data\" -> 'authData') = 'object' THEN \"u\".\"data\" -> 'authData' ELSE '{}'::jsonb END) AS \"p\" "
            + "WHERE jsonb_typeof(\"p\".value) = 'object' AND COALESCE(\(id)) IS NOT NULL"
    }
}
