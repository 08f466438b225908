/// The system tables and their named, ordered migrations, per dialect.
public enum SystemSchema {
    public static let migrationsTable = "_cirrus_migrations"
    public static let classesTable = "_cirrus_classes"
    public static let fieldsTable = "_cirrus_fields"
    public static let relationsTable = "_cirrus_relations"

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
        if dialect.name == "postgres" { list.append(setPathFunction) }
        return list
    }

    /// PostgreSQL: `jsonb_set` that creates missing parent objects, like SQLite's `json_set`.
    static let setPathFunction = Migration(name: "0003_cirrus_set_path", statements: [
        """
        CREATE OR REPLACE FUNCTION cirrus_set_path(document jsonb, path text[], value jsonb) RETURNS jsonb
        LANGUAGE plpgsql IMMUTABLE AS $$
        DECLARE
            depth int;
        BEGIN
            FOR depth IN 1 .. array_length(path, 1) - 1 LOOP
                IF document #> path[1:depth] IS NULL OR jsonb_typeof(document #> path[1:depth]) = 'null' THEN
                    document := jsonb_set(document, path[1:depth], '{}'::jsonb, true);
                END IF;
            END LOOP;
            RETURN jsonb_set(document, path, value, true);
        END
        $$
        """
    ])

    /// The DDL creating one class's table and its default indexes.
    public static func createObjectTable(_ dialect: any SQLDialect, table: String) -> [String] {
        let quoted = dialect.quote(table)
        return [
            "CREATE TABLE IF NOT EXISTS \(quoted) (\"id\" TEXT PRIMARY KEY, \"created_at\" \(dialect.integerColumnType) NOT NULL, "
                + "\"updated_at\" \(dialect.integerColumnType) NOT NULL, \"acl\" \(dialect.documentColumnType), "
                + "\"data\" \(dialect.documentColumnType) NOT NULL)",
            "CREATE INDEX IF NOT EXISTS \(dialect.quote(table + "_created_at")) ON \(quoted) (\"created_at\")",
            "CREATE INDEX IF NOT EXISTS \(dialect.quote(table + "_updated_at")) ON \(quoted) (\"updated_at\")",
        ]
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
