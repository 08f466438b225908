import CirrusModel
import CirrusSQL
import Testing

@Suite("ObjectStatements")
struct ObjectStatementsTests {
    /// Every statement over an object table, pinned for SQLite and PostgreSQL (each was run on both).
    static let cases: [StatementCase] = [
        StatementCase(
            "insert binds the id, both times in milliseconds, the ACL and the document",
            sqlite: DialectSQL(#"INSERT INTO "o_t" ("id", "created_at", "updated_at", "acl", "data") VALUES (?, ?, ?, ?, ?)"#, [.text(#"a"#), .int(1000), .int(2000), .text(#"{"*":{"read":true,"write":true}}"#), .text(#"{"n":1}"#)]),
            postgres: DialectSQL(#"INSERT INTO "o_t" ("id", "created_at", "updated_at", "acl", "data") VALUES ($1, $2, $3, $4::jsonb, $5::jsonb)"#, [.text(#"a"#), .int(1000), .int(2000), .text(#"{"*":{"read":true,"write":true}}"#), .text(#"{"n":1}"#)])
        ) {
            ObjectStatements(dialect: $0, table: "o_t").insert(
                id: "a", createdAt: Timestamp(millisecondsSince1970: 1000), updatedAt: Timestamp(millisecondsSince1970: 2000),
                acl: ACL.publicReadWrite.wire, dataText: #"{"n":1}"#)
        },
        StatementCase(
            "insert writes NULL for an object without ACL",
            sqlite: DialectSQL(#"INSERT INTO "o_t" ("id", "created_at", "updated_at", "acl", "data") VALUES (?, ?, ?, NULL, ?)"#, [.text(#"a"#), .int(1000), .int(1000), .text(#"{}"#)]),
            postgres: DialectSQL(#"INSERT INTO "o_t" ("id", "created_at", "updated_at", "acl", "data") VALUES ($1, $2, $3, NULL, $4::jsonb)"#, [.text(#"a"#), .int(1000), .int(1000), .text(#"{}"#)])
        ) {
            ObjectStatements(dialect: $0, table: "o_t").insert(
                id: "a", createdAt: Timestamp(millisecondsSince1970: 1000), updatedAt: Timestamp(millisecondsSince1970: 1000),
                acl: nil, dataText: "{}")
        },
        StatementCase(
            "select by ids reads the five columns",
            sqlite: DialectSQL(#"SELECT "id", "created_at", "updated_at", "acl", "data" FROM "o_t" WHERE "id" IN (?, ?)"#, [.text(#"a"#), .text(#"b"#)]),
            postgres: DialectSQL(#"SELECT "id", "created_at", "updated_at", "acl"::text, "data"::text FROM "o_t" WHERE "id" IN ($1, $2)"#, [.text(#"a"#), .text(#"b"#)])
        ) {
            ObjectStatements(dialect: $0, table: "o_t").select(ids: ["a", "b"])
        },
        StatementCase(
            "update sets the time, the document and the ACL, then applies the condition",
            sqlite: DialectSQL(#"UPDATE "o_t" SET "updated_at" = ?, "data" = "data", "acl" = ? WHERE "id" = ? AND "id" <> ? RETURNING "id", "created_at", "updated_at", "acl", "data""#, [.int(2000), .text(#"{"*":{"read":true}}"#), .text(#"a"#), .text(#"b"#)]),
            postgres: DialectSQL(#"UPDATE "o_t" SET "updated_at" = $1, "data" = "data", "acl" = $2::jsonb WHERE "id" = $3 AND "id" <> $4 RETURNING "id", "created_at", "updated_at", "acl"::text, "data"::text"#, [.int(2000), .text(#"{"*":{"read":true}}"#), .text(#"a"#), .text(#"b"#)])
        ) {
            ObjectStatements(dialect: $0, table: "o_t").update(
                id: "a", document: #""data""#, updatedAt: Timestamp(millisecondsSince1970: 2000), acl: .some(["*": ["read": true]]),
                condition: "\"id\" <> \(bind: .text("b"))")
        },
        StatementCase(
            "update without changes only touches updated_at",
            sqlite: DialectSQL(#"UPDATE "o_t" SET "updated_at" = ? WHERE "id" = ? RETURNING "id", "created_at", "updated_at", "acl", "data""#, [.int(2000), .text(#"a"#)]),
            postgres: DialectSQL(#"UPDATE "o_t" SET "updated_at" = $1 WHERE "id" = $2 RETURNING "id", "created_at", "updated_at", "acl"::text, "data"::text"#, [.int(2000), .text(#"a"#)])
        ) {
            ObjectStatements(dialect: $0, table: "o_t").update(
                id: "a", document: nil, updatedAt: Timestamp(millisecondsSince1970: 2000), acl: nil, condition: nil)
        },
        StatementCase(
            "update with a removed ACL writes NULL",
            sqlite: DialectSQL(#"UPDATE "o_t" SET "updated_at" = ?, "acl" = NULL WHERE "id" = ? RETURNING "id", "created_at", "updated_at", "acl", "data""#, [.int(2000), .text(#"a"#)]),
            postgres: DialectSQL(#"UPDATE "o_t" SET "updated_at" = $1, "acl" = NULL WHERE "id" = $2 RETURNING "id", "created_at", "updated_at", "acl"::text, "data"::text"#, [.int(2000), .text(#"a"#)])
        ) {
            ObjectStatements(dialect: $0, table: "o_t").update(
                id: "a", document: nil, updatedAt: Timestamp(millisecondsSince1970: 2000), acl: .some(nil), condition: nil)
        },
        StatementCase(
            "delete by ids returns the deleted rows",
            sqlite: DialectSQL(#"DELETE FROM "o_t" WHERE "id" IN (?, ?) RETURNING "id", "created_at", "updated_at", "acl", "data""#, [.text(#"a"#), .text(#"b"#)]),
            postgres: DialectSQL(#"DELETE FROM "o_t" WHERE "id" IN ($1, $2) RETURNING "id", "created_at", "updated_at", "acl"::text, "data"::text"#, [.text(#"a"#), .text(#"b"#)])
        ) {
            ObjectStatements(dialect: $0, table: "o_t").delete(ids: ["a", "b"], condition: nil)
        },
        StatementCase(
            "delete applies the condition",
            sqlite: DialectSQL(#"DELETE FROM "o_t" WHERE "id" IN (?) AND TRUE RETURNING "id", "created_at", "updated_at", "acl", "data""#, [.text(#"a"#)]),
            postgres: DialectSQL(#"DELETE FROM "o_t" WHERE "id" IN ($1) AND TRUE RETURNING "id", "created_at", "updated_at", "acl"::text, "data"::text"#, [.text(#"a"#)])
        ) {
            ObjectStatements(dialect: $0, table: "o_t").delete(ids: ["a"], condition: "TRUE")
        },
        StatementCase(
            "an update returning its prior row reads and locks it in the same statement where the dialect locks rows",
            sqlite: DialectSQL(#"UPDATE "o_t" SET "updated_at" = ? WHERE "id" = ? AND TRUE RETURNING "id", "created_at", "updated_at", "acl", "data""#, [.int(2000), .text(#"a"#)]),
            postgres: DialectSQL(#"UPDATE "o_t" SET "updated_at" = $1 FROM (SELECT "id" AS "prior_id", "created_at" AS "prior_created_at", "updated_at" AS "prior_updated_at", "acl" AS "prior_acl", "data" AS "prior_data" FROM "o_t" WHERE "id" = $2 FOR UPDATE) AS "prior" WHERE "id" = "prior_id" AND TRUE RETURNING "id", "created_at", "updated_at", "acl"::text, "data"::text, "prior_id", "prior_created_at", "prior_updated_at", "prior_acl"::text, "prior_data"::text"#, [.int(2000), .text(#"a"#)])
        ) {
            ObjectStatements(dialect: $0, table: "o_t").update(
                id: "a", document: nil, updatedAt: Timestamp(millisecondsSince1970: 2000), acl: nil, condition: "TRUE", returningPrior: true)
        },
        StatementCase(
            "exists selects 1 by id",
            sqlite: DialectSQL(#"SELECT 1 FROM "o_t" WHERE "id" = ?"#, [.text(#"a"#)]),
            postgres: DialectSQL(#"SELECT 1 FROM "o_t" WHERE "id" = $1"#, [.text(#"a"#)])
        ) {
            ObjectStatements(dialect: $0, table: "o_t").exists(id: "a")
        },
        StatementCase(
            "find orders, limits and skips with bound numbers",
            sqlite: DialectSQL(#"SELECT "id", "created_at", "updated_at", "acl", "data" FROM "o_t" WHERE TRUE ORDER BY "created_at" DESC LIMIT ? OFFSET ?"#, [.int(10), .int(20)]),
            postgres: DialectSQL(#"SELECT "id", "created_at", "updated_at", "acl"::text, "data"::text FROM "o_t" WHERE TRUE ORDER BY "created_at" DESC LIMIT $1 OFFSET $2"#, [.int(10), .int(20)])
        ) {
            ObjectStatements(dialect: $0, table: "o_t").find(where: "TRUE", order: [#""created_at" DESC"#], limit: 10, skip: 20)
        },
        StatementCase(
            "find without order has no ORDER BY",
            sqlite: DialectSQL(#"SELECT "id", "created_at", "updated_at", "acl", "data" FROM "o_t" WHERE FALSE LIMIT ? OFFSET ?"#, [.int(1), .int(0)]),
            postgres: DialectSQL(#"SELECT "id", "created_at", "updated_at", "acl"::text, "data"::text FROM "o_t" WHERE FALSE LIMIT $1 OFFSET $2"#, [.int(1), .int(0)])
        ) {
            ObjectStatements(dialect: $0, table: "o_t").find(where: "FALSE", order: [], limit: 1, skip: 0)
        },
        StatementCase(
            "count counts the matching rows",
            sqlite: DialectSQL(#"SELECT COUNT(*) FROM "o_t" WHERE TRUE"#, []),
            postgres: DialectSQL(#"SELECT COUNT(*) FROM "o_t" WHERE TRUE"#, [])
        ) {
            ObjectStatements(dialect: $0, table: "o_t").count(where: "TRUE")
        },
    ]

    @Test("each object statement renders the pinned SQL and bindings in both dialects", arguments: cases)
    func statement(_ pinned: StatementCase) {
        pinned.check()
    }

    @Test("the select list reads JSON columns as text in PostgreSQL")
    func columns() {
        #expect(ObjectStatements(dialect: SQLiteDialect(), table: "o_t").columns == #""id", "created_at", "updated_at", "acl", "data""#)
        #expect(ObjectStatements(dialect: PostgresDialect(), table: "o_t").columns
            == #""id", "created_at", "updated_at", "acl"::text, "data"::text"#)
    }

    @Test("a table name with a quote is quoted safely")
    func quotedTable() {
        let statement = ObjectStatements(dialect: SQLiteDialect(), table: #"o_"x"#).exists(id: "a")
        #expect(statement.description == #"SELECT 1 FROM "o_""x" WHERE "id" = ?"#)
    }

    @Test("order terms use built-in columns directly, Date fields by their ISO text, typed fields by their indexed expression on PostgreSQL, and other fields by value")
    func orderTerms() throws {
        let keys = try SortKey.parseList("-createdAt,objectId,d,-name,o.k")
        let sqlite = ConditionCompiler(dialect: SQLiteDialect(), schema: ConditionCase.schema).orderTerms(keys)
        let postgres = ConditionCompiler(dialect: PostgresDialect(), schema: ConditionCase.schema).orderTerms(keys)
        expectSQL(sqlite.joined(separator: ", "), SQLiteDialect(), DialectSQL(#""created_at" DESC, "id" ASC, json_extract("data", '$."d"."iso"') ASC, json_extract("data", '$."name"') DESC, json_extract("data", '$."o"."k"') ASC"#, []))
        expectSQL(postgres.joined(separator: ", "), PostgresDialect(), DialectSQL(#""created_at" DESC, "id" ASC, (("data" #> '{"d"}') ->> 'iso') COLLATE "C" ASC NULLS FIRST, ("data" #>> '{"name"}') COLLATE "C" DESC NULLS LAST, ROW(CASE jsonb_typeof(("data" #> '{"o","k"}')) WHEN 'number' THEN 1 WHEN 'boolean' THEN 1 WHEN 'string' THEN 2 WHEN 'object' THEN 2 WHEN 'array' THEN 2 ELSE 0 END, CASE jsonb_typeof(("data" #> '{"o","k"}')) WHEN 'number' THEN ("data" #> '{"o","k"}')::numeric WHEN 'boolean' THEN ("data" #> '{"o","k"}')::boolean::int END, CASE WHEN jsonb_typeof(("data" #> '{"o","k"}')) IN ('string', 'object', 'array') THEN convert_to(("data" #> '{"o","k"}') #>> '{}', 'UTF8') END) ASC"#, []))
    }
}
