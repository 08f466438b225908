import CirrusModel

/// The system tables and their named, ordered migrations, per dialect.
public enum SystemSchema {
    public static let migrationsTable = "_cirrus_migrations"
    public static let classesTable = "_cirrus_classes"
    public static let fieldsTable = "_cirrus_fields"
    public static let relationsTable = "_cirrus_relations"
    public static let credentialsTable = "_cirrus_credentials"
    public static let sessionsTable = "_cirrus_sessions"
    public static let codesTable = "_cirrus_codes"
    public static let sendsTable = "_cirrus_sends"
    /// Third-party accounts (`authData.<platform>`) and the users they are linked to, unique per platform and id.
    public static let authLinksTable = "_cirrus_auth_links"

    /// One named step; applied once, in order, inside a transaction.
    public struct Migration: Sendable {
        public let name: String
        public let statements: [String]
    }

    /// The statement creating the migrations table itself.
    public static func bootstrap(_ dialect: any SQLDialect) -> String {
        "CREATE TABLE IF NOT EXISTS \(dialect.quote(migrationsTable)) (\"name\" TEXT PRIMARY KEY, \"applied_at\" \(dialect.integerColumnType) NOT NULL)"
    }

    /// Every migration, oldest first.
    public static func migrations(_ dialect: any SQLDialect) -> [Migration] {
        var list = [
            Migration(name: "0001_schema_registry", statements: [
                "CREATE TABLE \(dialect.quote(classesTable)) (\"name\" TEXT PRIMARY KEY, \"table_name\" TEXT NOT NULL UNIQUE, "
                    + "\"created_at\" \(dialect.integerColumnType) NOT NULL)",
                "CREATE TABLE \(dialect.quote(fieldsTable)) (\"class_name\" TEXT NOT NULL, \"field\" TEXT NOT NULL, "
                    + "\"type\" TEXT NOT NULL, PRIMARY KEY (\"class_name\", \"field\"))",
            ]),
            Migration(name: "0002_relations", statements: [
                "CREATE TABLE \(dialect.quote(relationsTable)) (\"owner_class\" TEXT NOT NULL, \"field\" TEXT NOT NULL, "
                    + "\"owner_id\" TEXT NOT NULL, \"target_class\" TEXT NOT NULL, \"target_id\" TEXT NOT NULL, "
                    + "PRIMARY KEY (\"owner_class\", \"field\", \"owner_id\", \"target_id\"))",
                "CREATE INDEX \"_cirrus_relations_target\" ON \(dialect.quote(relationsTable)) (\"owner_class\", \"field\", \"target_id\")",
            ]),
        ]
        if dialect.name == "postgres" { list.append(jsonPathFunctions) }
        list.append(accounts(dialect))
        list.append(codes(dialect))
        list.append(Migration(name: "0006_class_options", statements: [
            "ALTER TABLE \(dialect.quote(classesTable)) ADD COLUMN \"options\" TEXT",
        ]))
        if dialect.name == "postgres" { list.append(doubleFunction) }
        list.append(authLinks(dialect))
        if dialect.name == "postgres" { list.append(exactDoubleFunction) }
        return list
    }

    /// One row per linked third-party account: the unique index on `(platform, uid)` is what makes an account
    /// belong to one user, however many sign-ups race; `(user_id, platform)` is the user's entry of that platform.
    /// Filled from existing users by ``userTableMigrations(_:)``.
    static func authLinks(_ dialect: any SQLDialect) -> Migration {
        Migration(name: "0008_auth_links", statements: [
            "CREATE TABLE \(dialect.quote(authLinksTable)) (\"user_id\" TEXT NOT NULL, \"platform\" TEXT NOT NULL, \"uid\" TEXT NOT NULL, "
                + "PRIMARY KEY (\"user_id\", \"platform\"))",
            "CREATE UNIQUE INDEX \(dialect.quote(uniqueIndexName(table: authLinksTable, field: "authData"))) ON \(dialect.quote(authLinksTable)) "
                + "(\"platform\", \"uid\")",
        ])
    }

    /// A named migration of the `_User` table, for databases whose table predates it; a table created later has its
    /// current shape from ``createObjectTable(_:table:className:)``. The stores apply it once, in the migrations'
    /// transaction, after the system migrations; one whose ``blockers`` query returns rows is skipped and tried again
    /// at the next start.
    public struct TableMigration: Sendable {
        public let name: String
        /// A query over the table returning what keeps the migration from applying (nothing: it applies).
        public let blockers: (@Sendable (_ table: String) -> String)?
        public let statements: @Sendable (_ table: String) -> [String]
    }

    /// The migrations of an existing `_User` table, oldest first.
    public static func userTableMigrations(_ dialect: any SQLDialect) -> [TableMigration] {
        [
            TableMigration(name: "0009_auth_links_from_users", blockers: nil) { table in [fillAuthLinks(dialect, userTable: table)] },
            TableMigration(name: "0010_email_unique_ignoring_case", blockers: { table in caseDuplicateEmails(dialect, userTable: table, limit: 10) }) {
                table in [lowerEmailIndex(dialect, userTable: table)]
            },
        ]
    }

    /// Links every account existing users hold, oldest user first: when two users hold one account (which only an
    /// older Cirrus allowed), the older keeps it and the other's entry stays in its `authData`, unlinked.
    static func fillAuthLinks(_ dialect: any SQLDialect, userTable: String) -> String {
        let links = dialect.quote(authLinksTable)
        let users = dialect.quote(userTable)
        let select: String
        if dialect.name == "postgres" {
            let id = ["uid", "openid", "id"].map { key in
                "CASE jsonb_typeof(\"p\".value -> '\(key)') WHEN 'string' THEN NULLIF(\"p\".value ->> '\(key)', '') "
                    + "WHEN 'number' THEN CASE WHEN (\"p\".value ->> '\(key)') ~ '^-?[0-9]+(\\.0+)?$' "
                    + "THEN split_part(\"p\".value ->> '\(key)', '.', 1) END END"
            }.joined(separator: ", ")
            select = "SELECT \"u\".\"id\", \"p\".key, COALESCE(\(id)) FROM \(users) AS \"u\", jsonb_each(CASE WHEN "
                + "jsonb_typeof(\"u\".\"data\" -> 'authData') = 'object' THEN \"u\".\"data\" -> 'authData' ELSE '{}'::jsonb END) AS \"p\" "
                + "WHERE jsonb_typeof(\"p\".value) = 'object' AND COALESCE(\(id)) IS NOT NULL"
        } else {
            let id = ["uid", "openid", "id"].map { key in
                "CASE json_type(\"p\".value, '$.\(key)') WHEN 'text' THEN NULLIF(json_extract(\"p\".value, '$.\(key)'), '') "
                    + "WHEN 'integer' THEN CAST(json_extract(\"p\".value, '$.\(key)') AS TEXT) "
                    + "WHEN 'real' THEN CASE WHEN json_extract(\"p\".value, '$.\(key)') = CAST(json_extract(\"p\".value, '$.\(key)') AS INTEGER) "
                    + "THEN CAST(CAST(json_extract(\"p\".value, '$.\(key)') AS INTEGER) AS TEXT) END END"
            }.joined(separator: ", ")
            select = "SELECT \"u\".\"id\", \"p\".key, COALESCE(\(id)) FROM \(users) AS \"u\", json_each(\"u\".\"data\", '$.authData') AS \"p\" "
                + "WHERE \"p\".type = 'object' AND COALESCE(\(id)) IS NOT NULL"
        }
        return "INSERT INTO \(links) (\"user_id\", \"platform\", \"uid\") \(select) ORDER BY \"u\".\"created_at\", \"u\".\"id\" ON CONFLICT DO NOTHING"
    }

    /// A user's e-mail address lower-cased, ASCII letters only on both stores (PostgreSQL's `lower` under the `C`
    /// collation, SQLite's built-in one): the expression of the case-insensitive unique index, and of log-ins by e-mail.
    public static func lowerEmail(_ dialect: any SQLDialect) -> String {
        let text = dialect.render(dialect.stringValue(dialect.target(column: "data", path: FieldPath(field: "email")))).sql
        return dialect.name == "postgres" ? "lower(\(text) COLLATE \"C\")" : "lower(\(text))"
    }

    /// The unique index on the lower-cased e-mail: `A@x.com` and `a@x.com` are one address. It sits beside the exact
    /// unique index, which queries for an address use.
    static func lowerEmailIndex(_ dialect: any SQLDialect, userTable: String) -> String {
        let name = dialect.quote(lowerEmailIndexName(userTable: userTable))
        return "CREATE UNIQUE INDEX IF NOT EXISTS \(name) ON \(dialect.quote(userTable)) ((\(lowerEmail(dialect))))"
    }

    /// `<table>_lower_unique_email`: read back as `email` by ``uniqueField(inMessage:)``.
    public static func lowerEmailIndexName(userTable: String) -> String {
        userTable + "_lower" + "_unique_email"
    }

    /// Up to `limit` lower-cased addresses that several users hold, spelled differently (a database from before
    /// e-mail uniqueness ignored case).
    public static func caseDuplicateEmails(_ dialect: any SQLDialect, userTable: String, limit: Int) -> String {
        let lower = lowerEmail(dialect)
        return "SELECT \(lower) FROM \(dialect.quote(userTable)) WHERE \(lower) IS NOT NULL GROUP BY \(lower) HAVING COUNT(*) > 1 "
            + "ORDER BY 1 LIMIT \(limit)"
    }

    /// PostgreSQL: a double as SQLite's JSON writes it, so that arithmetic gives the same documents on both stores:
    /// integral values keep a `.0` (`2.0`, not `2`, which would read back as an integer), others their shortest
    /// exact text (`0.30000000000000004`); NaN and infinities, which JSON lacks, become `null`.
    static let doubleFunction = Migration(name: "0007_cirrus_double_jsonb", statements: [
        """
        CREATE OR REPLACE FUNCTION cirrus_double_jsonb(value float8) RETURNS jsonb LANGUAGE sql IMMUTABLE AS $$
          SELECT CASE
            WHEN value = 'NaN'::float8 OR value = 'Infinity'::float8 OR value = '-Infinity'::float8 THEN 'null'::jsonb
            WHEN value = trunc(value) THEN to_jsonb(value::numeric(1000, 1))
            ELSE (value::text)::jsonb
          END
        $$
        """,
    ])

    /// PostgreSQL: ``doubleFunction`` wrote an integral double through `numeric`, which keeps 15 significant digits
    /// (2^63 became 9223372036854780000.0); its shortest exact text keeps every double as SQLite writes it.
    static let exactDoubleFunction = Migration(name: "0011_cirrus_double_jsonb_exact", statements: [
        """
        CREATE OR REPLACE FUNCTION cirrus_double_jsonb(value float8) RETURNS jsonb LANGUAGE sql IMMUTABLE AS $$
          SELECT CASE
            WHEN value = 'NaN'::float8 OR value = 'Infinity'::float8 OR value = '-Infinity'::float8 THEN 'null'::jsonb
            WHEN value = trunc(value) THEN to_jsonb((value::text)::numeric(1000, 1))
            ELSE (value::text)::jsonb
          END
        $$
        """,
    ])

    /// Verification codes and link tokens, and the sends that rate limits count.
    static func codes(_ dialect: any SQLDialect) -> Migration {
        Migration(name: "0005_codes", statements: [
            "CREATE TABLE \(dialect.quote(codesTable)) (\"purpose\" TEXT NOT NULL, \"target\" TEXT NOT NULL, \"code\" TEXT NOT NULL, "
                + "\"user_id\" TEXT, \"created_at\" \(dialect.integerColumnType) NOT NULL, \"expires_at\" \(dialect.integerColumnType) NOT NULL, "
                + "\"attempts\" \(dialect.integerColumnType) NOT NULL DEFAULT 0, \"data\" TEXT, PRIMARY KEY (\"purpose\", \"target\"))",
            "CREATE INDEX \"_cirrus_codes_code\" ON \(dialect.quote(codesTable)) (\"purpose\", \"code\")",
            "CREATE TABLE \(dialect.quote(sendsTable)) (\"target\" TEXT NOT NULL, \"sent_at\" \(dialect.integerColumnType) NOT NULL)",
            "CREATE INDEX \"_cirrus_sends_target\" ON \(dialect.quote(sendsTable)) (\"target\", \"sent_at\")",
        ])
    }

    /// Passwords, lock-out state and sessions, kept beside the `_User` objects and never in them.
    static func accounts(_ dialect: any SQLDialect) -> Migration {
        Migration(name: "0004_accounts", statements: [
            "CREATE TABLE \(dialect.quote(credentialsTable)) (\"user_id\" TEXT PRIMARY KEY, \"password\" TEXT, "
                + "\"failures\" TEXT NOT NULL DEFAULT '[]', \"locked_until\" \(dialect.integerColumnType))",
            "CREATE TABLE \(dialect.quote(sessionsTable)) (\"token\" TEXT PRIMARY KEY, \"session_id\" TEXT NOT NULL UNIQUE, "
                + "\"user_id\" TEXT NOT NULL, \"kind\" TEXT NOT NULL, \"created_at\" \(dialect.integerColumnType) NOT NULL, "
                + "\"expires_at\" \(dialect.integerColumnType), \"installation_id\" TEXT, \"created_with\" TEXT)",
            "CREATE INDEX \"_cirrus_sessions_user\" ON \(dialect.quote(sessionsTable)) (\"user_id\", \"kind\")",
            // One stable (LeanCloud / Bmob) token per user, even when two log-ins race.
            "CREATE UNIQUE INDEX \"_cirrus_sessions_stable\" ON \(dialect.quote(sessionsTable)) (\"user_id\") WHERE \"kind\" = 'stable'",
        ])
    }

    /// Fields whose values are unique within a system class: a user's log-in names, a role's name, a file's key.
    /// Objects without the field are not constrained.
    public static func uniqueFields(of className: String) -> [String] {
        switch className {
        case "_User": ["username", "email", "mobilePhoneNumber"]
        case "_Role": ["name"]
        // Downloads find a file's row by its key.
        case "_File": ["key"]
        default: []
        }
    }

    /// The name of the unique index on `field`; ``uniqueField(inIndexName:)`` reads the field back from it.
    public static func uniqueIndexName(table: String, field: String) -> String {
        table + "_unique_" + field
    }

    /// The field of a unique index named by ``uniqueIndexName(table:field:)``, found in a database message.
    public static func uniqueField(inMessage message: String) -> String? {
        // SQLite names the columns of a column index, not the index: `UNIQUE constraint failed: _cirrus_auth_links.platform, …`.
        if message.contains(authLinksTable) { return "authData" }
        guard let marker = message.firstRange(of: "_unique_") else { return nil }
        let field = message[marker.upperBound...].prefix { $0.isLetter || $0.isNumber || $0 == "_" }
        return field.isEmpty ? nil : String(field)
    }

    /// PostgreSQL: nested writes that behave like SQLite's `json_set` and `json_remove`, which the SQLite
    /// dialect uses, so that both stores give the same document.
    ///
    /// `cirrus_set_path` creates missing parent objects (and appends when an index is exactly the length
    /// of its array) and leaves the document unchanged when a parent is a scalar or `null`, when an array
    /// is given a non-numeric segment, or when an index lies past the end. `cirrus_remove_path` leaves the
    /// document unchanged where `#-` would raise an error. Nested `IF`s guard the casts, since PostgreSQL
    /// does not promise to evaluate `AND` from left to right.
    static let jsonPathFunctions = Migration(name: "0003_cirrus_json_paths", statements: [
        """
        CREATE OR REPLACE FUNCTION cirrus_set_path(document jsonb, path text[], value jsonb) RETURNS jsonb
        LANGUAGE plpgsql IMMUTABLE AS $$
        DECLARE
            depth int;
            parent jsonb;
            child jsonb;
        BEGIN
            FOR depth IN 1 .. array_length(path, 1) LOOP
                parent := document #> path[1:depth - 1];
                IF jsonb_typeof(parent) = 'object' THEN
                    child := parent -> path[depth];
                ELSIF jsonb_typeof(parent) = 'array' AND path[depth] ~ '^[0-9]{1,9}$' THEN
                    IF path[depth]::int > jsonb_array_length(parent) THEN
                        RETURN document;
                    END IF;
                    child := parent -> path[depth]::int;
                ELSE
                    RETURN document;
                END IF;
                IF child IS NULL AND depth < array_length(path, 1) THEN
                    document := jsonb_set(document, path[1:depth], '{}'::jsonb, true);
                END IF;
            END LOOP;
            RETURN jsonb_set(document, path, value, true);
        END
        $$
        """,
        """
        CREATE OR REPLACE FUNCTION cirrus_remove_path(document jsonb, path text[]) RETURNS jsonb
        LANGUAGE plpgsql IMMUTABLE AS $$
        DECLARE
            depth int;
            parent jsonb;
        BEGIN
            FOR depth IN 1 .. array_length(path, 1) LOOP
                parent := document #> path[1:depth - 1];
                IF jsonb_typeof(parent) = 'array' THEN
                    IF path[depth] !~ '^[0-9]{1,9}$' THEN
                        RETURN document;
                    END IF;
                ELSIF jsonb_typeof(parent) IS DISTINCT FROM 'object' THEN
                    RETURN document;
                END IF;
            END LOOP;
            RETURN document #- path;
        END
        $$
        """,
    ])

    /// The DDL creating one class's table and its default indexes, and the unique indexes of a system class.
    public static func createObjectTable(_ dialect: any SQLDialect, table: String, className: String = "") -> [String] {
        let quoted = dialect.quote(table)
        let unique = uniqueFields(of: className).map { field in
            let value = dialect.comparedExpressions(dialect.target(column: "data", path: FieldPath(field: field)), textual: true)[0]
            return "CREATE UNIQUE INDEX IF NOT EXISTS \(dialect.quote(uniqueIndexName(table: table, field: field))) ON \(quoted) "
                + "((\(dialect.render(value).sql)))"
        }
        return [
            "CREATE TABLE IF NOT EXISTS \(quoted) (\"id\" TEXT PRIMARY KEY, \"created_at\" \(dialect.integerColumnType) NOT NULL, "
                + "\"updated_at\" \(dialect.integerColumnType) NOT NULL, \"acl\" \(dialect.documentColumnType), "
                + "\"data\" \(dialect.documentColumnType) NOT NULL)",
            "CREATE INDEX IF NOT EXISTS \(dialect.quote(SQLIdentifier.fitting(table + "_created_at"))) ON \(quoted) (\"created_at\")",
            "CREATE INDEX IF NOT EXISTS \(dialect.quote(SQLIdentifier.fitting(table + "_updated_at"))) ON \(quoted) (\"updated_at\")",
        ] + unique + (className == "_User" ? [lowerEmailIndex(dialect, userTable: table)] : [])
    }

    /// The table name for a class: `o_` and the lower-cased name, suffixed when that name is taken
    /// by a class whose name differs only in case (SQLite table names ignore case), and shortened with a hash of
    /// the whole when longer than PostgreSQL keeps (``SQLIdentifier``).
    public static func tableName(for className: String, taken: Set<String>) -> String {
        let base = "o_" + className.lowercased()
        var candidate = SQLIdentifier.fitting(base)
        var suffix = 2
        while taken.contains(candidate) {
            candidate = SQLIdentifier.fitting(base + "_\(suffix)")
            suffix += 1
        }
        return candidate
    }
}
