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
        if dialect.name == "postgres" { list += [doubleFunction, exactDoubleFunction] }
        return list
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
    static let exactDoubleFunction = Migration(name: "0008_cirrus_double_jsonb_exact", statements: [
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
            "CREATE INDEX IF NOT EXISTS \(dialect.quote(table + "_created_at")) ON \(quoted) (\"created_at\")",
            "CREATE INDEX IF NOT EXISTS \(dialect.quote(table + "_updated_at")) ON \(quoted) (\"updated_at\")",
        ] + unique
    }

    /// The table name for a class: `o_` and the lower-cased name, suffixed when that name is taken
    /// by a class whose name differs only in case (SQLite table names ignore case).
    public static func tableName(for className: String, taken: Set<String>) -> String {
        let base = "o_" + className.lowercased()
        var candidate = base
        var suffix = 2
        while taken.contains(candidate) {
            candidate = base + "_\(suffix)"
            suffix += 1
        }
        return candidate
    }
}
