import CirrusSQL
import Testing

@Suite("SystemSchema")
struct SystemSchemaTests {
    @Test("the migrations table is created with the dialect's integer type")
    func bootstrap() {
        #expect(SystemSchema.bootstrap(SQLiteDialect())
            == #"CREATE TABLE IF NOT EXISTS "_cirrus_migrations" ("name" TEXT PRIMARY KEY, "applied_at" INTEGER NOT NULL)"#)
        #expect(SystemSchema.bootstrap(PostgresDialect())
            == #"CREATE TABLE IF NOT EXISTS "_cirrus_migrations" ("name" TEXT PRIMARY KEY, "applied_at" BIGINT NOT NULL)"#)
    }

    @Test("SQLite applies the registry, relation, account, subscription, hook-call, cloud-registration and push migrations, PostgreSQL also its JSON path functions and change log")
    func migrationNames() {
        #expect(SystemSchema.migrations(SQLiteDialect()).map(\.name)
            == ["0001_schema_registry", "0002_relations", "0004_accounts", "0005_codes", "0006_class_options", "0008_auth_links", "0013_live_subscriptions", "0014_hook_calls", "0015_cloud_registrations", "0017_pushes", "0018_inboxes"])
        #expect(SystemSchema.migrations(PostgresDialect()).map(\.name)
            == ["0001_schema_registry", "0002_relations", "0003_cirrus_json_paths", "0004_accounts", "0005_codes", "0006_class_options",
                "0007_cirrus_double_jsonb", "0008_auth_links", "0011_cirrus_double_jsonb_exact", "0012_change_log", "0013_live_subscriptions", "0014_hook_calls", "0015_cloud_registrations", "0017_pushes", "0018_inboxes"])
        #expect(SystemSchema.tableMigrations(SQLiteDialect()).map(\.name) == ["0009_auth_links_from_users", "0010_email_unique_ignoring_case", "0016_installation_ids_unique"])
    }

    @Test("third-party accounts are unique per platform and id, one per platform for a user; a refusal names authData on both stores")
    func authLinks() throws {
        let migration = try #require(SystemSchema.migrations(SQLiteDialect()).first { $0.name == "0008_auth_links" })
        #expect(migration.statements == [
            #"CREATE TABLE "_cirrus_auth_links" ("user_id" TEXT NOT NULL, "platform" TEXT NOT NULL, "uid" TEXT NOT NULL, "#
                + #"PRIMARY KEY ("user_id", "platform"))"#,
            #"CREATE UNIQUE INDEX "_cirrus_auth_links_unique_authData" ON "_cirrus_auth_links" ("platform", "uid")"#,
        ])
        #expect(SystemSchema.uniqueField(inMessage: "UNIQUE constraint failed: _cirrus_auth_links.platform, _cirrus_auth_links.uid") == "authData")
        #expect(SystemSchema.uniqueField(inMessage: "_cirrus_auth_links_unique_authData") == "authData")
    }

    @Test("e-mail addresses are unique lower-cased, ASCII only on both stores, and the unique index reads back as email")
    func lowerEmail() {
        #expect(SystemSchema.lowerEmail(SQLiteDialect()) == #"lower(json_extract("data", '$."email"'))"#)
        #expect(SystemSchema.lowerEmail(PostgresDialect()) == #"lower(("data" #>> '{"email"}') COLLATE "C")"#)
        let user = SystemSchema.createObjectTable(PostgresDialect(), table: "o__user", className: "_User")
        #expect(user.contains(#"CREATE UNIQUE INDEX IF NOT EXISTS "o__user_lower_unique_email" ON "o__user" ((lower(("data" #>> '{"email"}') COLLATE "C")))"#))
        #expect(SystemSchema.uniqueField(inMessage: #"duplicate key value violates unique constraint "o__user_lower_unique_email""#) == "email")
    }

    @Test("the account tables keep one stable session per user and never touch object tables")
    func accountTables() {
        let statements = SystemSchema.migrations(SQLiteDialect()).first { $0.name == "0004_accounts" }?.statements ?? []
        #expect(statements.count == 4)
        #expect(statements.contains(#"CREATE UNIQUE INDEX "_cirrus_sessions_stable" ON "_cirrus_sessions" ("user_id") WHERE "kind" = 'stable'"#))
        #expect(statements.allSatisfy { !$0.contains("o_") })
    }

    @Test("_User and _Role tables get unique indexes on their log-in names and role name; other classes none")
    func uniqueIndexes() {
        let user = SystemSchema.createObjectTable(SQLiteDialect(), table: "o__user", className: "_User")
        #expect(user.contains(#"CREATE UNIQUE INDEX IF NOT EXISTS "o__user_unique_username" ON "o__user" ((json_extract("data", '$."username"')))"#))
        #expect(user.filter { $0.hasPrefix("CREATE UNIQUE INDEX") }.count == 4)
        let role = SystemSchema.createObjectTable(PostgresDialect(), table: "o__role", className: "_Role")
        #expect(role.filter { $0.hasPrefix("CREATE UNIQUE INDEX") }.count == 1)
        #expect(SystemSchema.createObjectTable(SQLiteDialect(), table: "o_post", className: "Post").allSatisfy { !$0.contains("UNIQUE") })
        #expect(SystemSchema.uniqueField(inMessage: "UNIQUE constraint failed: index 'o__user_unique_email'") == "email")
        #expect(SystemSchema.uniqueField(inMessage: "UNIQUE constraint failed: o_post.id") == nil)
    }

    @Test("the registry and relation tables are pinned for both dialects", arguments: [
        (SQLiteDialect() as any SQLDialect, "INTEGER"), (PostgresDialect() as any SQLDialect, "BIGINT"),
    ])
    func registryTables(_ dialect: any SQLDialect, _ integer: String) {
        let statements = SystemSchema.migrations(dialect).prefix(2).flatMap(\.statements)
        #expect(statements == [
            #"CREATE TABLE "_cirrus_classes" ("name" TEXT PRIMARY KEY, "table_name" TEXT NOT NULL UNIQUE, "created_at" "#
                + integer + " NOT NULL)",
            #"CREATE TABLE "_cirrus_fields" ("class_name" TEXT NOT NULL, "field" TEXT NOT NULL, "type" TEXT NOT NULL, "#
                + #"PRIMARY KEY ("class_name", "field"))"#,
            #"CREATE TABLE "_cirrus_relations" ("owner_class" TEXT NOT NULL, "field" TEXT NOT NULL, "owner_id" TEXT NOT NULL, "#
                + #""target_class" TEXT NOT NULL, "target_id" TEXT NOT NULL, "#
                + #"PRIMARY KEY ("owner_class", "field", "owner_id", "target_id"))"#,
            #"CREATE INDEX "_cirrus_relations_target" ON "_cirrus_relations" ("owner_class", "field", "target_id")"#,
        ])
    }

    @Test("PostgreSQL installs cirrus_set_path and cirrus_remove_path as immutable plpgsql functions")
    func pathFunctions() throws {
        let migration = try #require(SystemSchema.migrations(PostgresDialect()).first { $0.name == "0003_cirrus_json_paths" })
        #expect(migration.statements.count == 2)
        let setPath = try #require(migration.statements.first)
        let removePath = try #require(migration.statements.last)
        #expect(setPath.hasPrefix(
            "CREATE OR REPLACE FUNCTION cirrus_set_path(document jsonb, path text[], value jsonb) RETURNS jsonb\n"
                + "LANGUAGE plpgsql IMMUTABLE AS $$\n"))
        #expect(setPath.contains("RETURN jsonb_set(document, path, value, true);"))
        #expect(setPath.contains("document := jsonb_set(document, path[1:depth], '{}'::jsonb, true);"))
        #expect(setPath.contains("IF path[depth]::int > jsonb_array_length(parent) THEN"))
        #expect(setPath.hasSuffix("END\n$$"))
        #expect(removePath.hasPrefix(
            "CREATE OR REPLACE FUNCTION cirrus_remove_path(document jsonb, path text[]) RETURNS jsonb\n"
                + "LANGUAGE plpgsql IMMUTABLE AS $$\n"))
        #expect(removePath.contains("RETURN document #- path;"))
        #expect(removePath.hasSuffix("END\n$$"))
    }

    @Test("an object table has id, times in milliseconds, an optional ACL, the document and two time indexes")
    func objectTable() {
        #expect(SystemSchema.createObjectTable(SQLiteDialect(), table: "o_gamescore") == [
            #"CREATE TABLE IF NOT EXISTS "o_gamescore" ("id" TEXT PRIMARY KEY, "created_at" INTEGER NOT NULL, "#
                + #""updated_at" INTEGER NOT NULL, "acl" TEXT, "data" TEXT NOT NULL)"#,
            #"CREATE INDEX IF NOT EXISTS "o_gamescore_created_at" ON "o_gamescore" ("created_at")"#,
            #"CREATE INDEX IF NOT EXISTS "o_gamescore_updated_at" ON "o_gamescore" ("updated_at")"#,
        ])
        #expect(SystemSchema.createObjectTable(PostgresDialect(), table: "o_gamescore") == [
            #"CREATE TABLE IF NOT EXISTS "o_gamescore" ("id" TEXT PRIMARY KEY, "created_at" BIGINT NOT NULL, "#
                + #""updated_at" BIGINT NOT NULL, "acl" JSONB, "data" JSONB NOT NULL)"#,
            #"CREATE INDEX IF NOT EXISTS "o_gamescore_created_at" ON "o_gamescore" ("created_at")"#,
            #"CREATE INDEX IF NOT EXISTS "o_gamescore_updated_at" ON "o_gamescore" ("updated_at")"#,
        ])
    }

    @Test("table names are o_ and the lower-cased class, suffixed when a case variant took the name")
    func tableNames() {
        #expect(SystemSchema.tableName(for: "GameScore", taken: []) == "o_gamescore")
        #expect(SystemSchema.tableName(for: "_User", taken: ["o_gamescore"]) == "o__user")
        #expect(SystemSchema.tableName(for: "gameScore", taken: ["o_gamescore"]) == "o_gamescore_2")
        #expect(SystemSchema.tableName(for: "GAMESCORE", taken: ["o_gamescore", "o_gamescore_2"]) == "o_gamescore_3")
    }

    @Test("long class names sharing a prefix get tables and indexes of their own within PostgreSQL's 63 bytes")
    func longTableNames() {
        let prefix = String(repeating: "Long", count: 20)
        let one = SystemSchema.tableName(for: prefix + "One", taken: [])
        let two = SystemSchema.tableName(for: prefix + "Two", taken: [one])
        let names = [one, two] + [one, two].flatMap { table in
            SystemSchema.createObjectTable(SQLiteDialect(), table: table, className: "C").compactMap { $0.firstMatch(of: /INDEX IF NOT EXISTS "([^"]+)"/)?.1 }.map(String.init)
        }
        #expect(names.count == 6)
        #expect(Set(names).count == names.count)
        #expect(names.allSatisfy { $0.utf8.count <= 63 })
        #expect(one.hasPrefix("o_longlong"))
        // A name that fits is kept, however it was cut from a longer one.
        #expect(SystemSchema.tableName(for: String(repeating: "a", count: 61), taken: []) == "o_" + String(repeating: "a", count: 61))
        #expect(SystemSchema.tableName(for: String(repeating: "a", count: 62), taken: []).utf8.count == 63)
        let taken = SystemSchema.tableName(for: prefix, taken: [])
        #expect(SystemSchema.tableName(for: prefix.uppercased(), taken: [taken]) != taken)
    }
}
