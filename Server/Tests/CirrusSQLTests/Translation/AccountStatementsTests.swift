import CirrusModel
import CirrusSQL
import Testing

@Suite("AccountStatements")
struct AccountStatementsTests {
    /// The statements over passwords, lock-outs, sessions and roles, pinned for SQLite and PostgreSQL.
    static let cases: [StatementCase] = [
        StatementCase(
            "a user's roles follow the users relation, then every role whose roles relation lists one found, in one recursive query",
            sqlite: DialectSQL(#"WITH RECURSIVE "held"("id") AS (SELECT "owner_id" FROM "_cirrus_relations" WHERE "owner_class" = '_Role' AND "field" = 'users' AND "target_id" = ? UNION SELECT "r"."owner_id" FROM "_cirrus_relations" AS "r" JOIN "held" ON "r"."target_id" = "held"."id" WHERE "r"."owner_class" = '_Role' AND "r"."field" = 'roles') SELECT json_extract("data", '$."name"') FROM "o__role" WHERE "id" IN (SELECT "id" FROM "held") ORDER BY 1"#, [.text("u1")]),
            postgres: DialectSQL(#"WITH RECURSIVE "held"("id") AS (SELECT "owner_id" FROM "_cirrus_relations" WHERE "owner_class" = '_Role' AND "field" = 'users' AND "target_id" = $1 UNION SELECT "r"."owner_id" FROM "_cirrus_relations" AS "r" JOIN "held" ON "r"."target_id" = "held"."id" WHERE "r"."owner_class" = '_Role' AND "r"."field" = 'roles') SELECT ("data" #>> '{"name"}') FROM "o__role" WHERE "id" IN (SELECT "id" FROM "held") ORDER BY 1"#, [.text("u1")])
        ) {
            AccountStatements(dialect: $0).roleNames(userId: "u1", roleTable: "o__role")
        },
        StatementCase(
            "a failure is appended inside the upsert, so concurrent attempts never overwrite each other",
            sqlite: DialectSQL(#"INSERT INTO "_cirrus_credentials" ("user_id", "failures") VALUES (?, ?) ON CONFLICT ("user_id") DO UPDATE SET "failures" = json_insert("_cirrus_credentials"."failures", '$[#]', ?)"#, [.text("u1"), .text("[5]"), .int(5)]),
            postgres: DialectSQL(#"INSERT INTO "_cirrus_credentials" ("user_id", "failures") VALUES ($1, $2) ON CONFLICT ("user_id") DO UPDATE SET "failures" = ("_cirrus_credentials"."failures"::jsonb || to_jsonb($3::bigint))::text"#, [.text("u1"), .text("[5]"), .int(5)])
        ) {
            AccountStatements(dialect: $0).appendFailure(userId: "u1", at: Timestamp(millisecondsSince1970: 5))
        },
        StatementCase(
            "the lock-out state replaces the failures and the lock's end",
            sqlite: DialectSQL(#"INSERT INTO "_cirrus_credentials" ("user_id", "failures", "locked_until") VALUES (?, ?, ?) ON CONFLICT ("user_id") DO UPDATE SET "failures" = excluded."failures", "locked_until" = excluded."locked_until""#, [.text("u1"), .text("[1,2]"), .null]),
            postgres: DialectSQL(#"INSERT INTO "_cirrus_credentials" ("user_id", "failures", "locked_until") VALUES ($1, $2, $3) ON CONFLICT ("user_id") DO UPDATE SET "failures" = excluded."failures", "locked_until" = excluded."locked_until""#, [.text("u1"), .text("[1,2]"), .null])
        ) {
            AccountStatements(dialect: $0).setLockout(
                userId: "u1", failures: [Timestamp(millisecondsSince1970: 1), Timestamp(millisecondsSince1970: 2)], lockedUntil: nil
            )
        },
        StatementCase(
            "revoking a user's sessions of a kind can keep one token",
            sqlite: DialectSQL(#"DELETE FROM "_cirrus_sessions" WHERE "user_id" = ? AND "kind" = ? AND "token" <> ?"#, [.text("u1"), .text("stable"), .text("t")]),
            postgres: DialectSQL(#"DELETE FROM "_cirrus_sessions" WHERE "user_id" = $1 AND "kind" = $2 AND "token" <> $3"#, [.text("u1"), .text("stable"), .text("t")])
        ) {
            AccountStatements(dialect: $0).deleteSessions(userId: "u1", kind: "stable", keeping: "t")
        },
        StatementCase(
            "the write predicate grants a NULL ACL or a write flag of one of the writers",
            sqlite: DialectSQL(#"("acl" IS NULL OR json_type("acl", '$."*"."write"') = 'true' OR json_type("acl", '$."u1"."write"') = 'true')"#, []),
            postgres: DialectSQL(#"("acl" IS NULL OR (("acl" #> '{"*"}') -> 'write') = 'true'::jsonb OR (("acl" #> '{"u1"}') -> 'write') = 'true'::jsonb)"#, [])
        ) {
            ConditionCompiler(dialect: $0, schema: nil).writable(by: ["*", "u1", "bad\"key"]) ?? "missing"
        },
    ]

    @Test("each account statement renders the pinned SQL and bindings in both dialects", arguments: cases)
    func statement(_ pinned: StatementCase) {
        pinned.check()
    }

    @Test("the master key needs no write predicate")
    func masterWrites() {
        #expect(ConditionCompiler(dialect: SQLiteDialect(), schema: nil).writable(by: nil) == nil)
    }
}
