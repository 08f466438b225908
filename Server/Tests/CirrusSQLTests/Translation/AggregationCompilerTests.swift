import CirrusModel
import CirrusSQL
import Testing

@Suite("AggregationCompiler: statistics statements")
struct AggregationCompilerTests {
    static let schema = ClassSchema(className: "GameScore", fields: [
        "playerName": .string, "score": .number, "played": .date, "meta": .object,
    ])

    /// A statistics query and the statement each dialect compiles it to, over table `o_gamescore` with the
    /// condition `TRUE`.
    struct Case: Sendable, CustomTestStringConvertible {
        let label: String
        let aggregation: Aggregation
        var dayOffsetMinutes = 0
        let sqlite: DialectSQL
        let postgres: DialectSQL
        var testDescription: String { label }
    }

    static func path(_ text: String) -> FieldPath {
        try! FieldPath(parsing: text)
    }

    static let cases: [Case] = [
        Case(label: "sum without groups",
            aggregation: Aggregation(className: "GameScore", functions: [(.sum, path("score"))]),
            sqlite: DialectSQL(#"SELECT (CASE WHEN COUNT(CASE WHEN typeof(CASE WHEN json_type("data", '$."score"') IN ('integer', 'real') THEN json_extract("data", '$."score"') END) = 'real' THEN 1 END) > 0 THEN TOTAL(CASE WHEN json_type("data", '$."score"') IN ('integer', 'real') THEN json_extract("data", '$."score"') END) ELSE (COALESCE(SUM(CASE WHEN json_type("data", '$."score"') IN ('integer', 'real') THEN json_extract("data", '$."score"') END >> 32), 0) + (COALESCE(SUM(CASE WHEN json_type("data", '$."score"') IN ('integer', 'real') THEN json_extract("data", '$."score"') END & 4294967295), 0) >> 32)) * 4294967296 + (COALESCE(SUM(CASE WHEN json_type("data", '$."score"') IN ('integer', 'real') THEN json_extract("data", '$."score"') END & 4294967295), 0) & 4294967295) END) AS "a0" FROM "o_gamescore" WHERE TRUE LIMIT ? OFFSET ?"#, [.int(100), .int(0)]),
            postgres: DialectSQL(#"SELECT COALESCE(SUM(CASE WHEN jsonb_typeof(("data" #> '{"score"}')) = 'number' THEN ("data" #> '{"score"}')::numeric END), 0) AS "a0" FROM "o_gamescore" WHERE TRUE LIMIT $1 OFFSET $2"#, [.int(100), .int(0)])),
        Case(label: "groupby with sum, groupcount, having and order",
            aggregation: Aggregation(
                className: "GameScore", groupBy: [path("playerName")], functions: [(.sum, path("score"))], countsGroups: true,
                having: .compare(FieldPath(field: "_sumScore"), .greaterThan, .int(50)), order: [SortKey(path: FieldPath(field: "_sumScore"), descending: true)],
                limit: 10, skip: 5
            ),
            sqlite: DialectSQL(#"SELECT ("data" -> '$."playerName"') AS "g0", (CASE WHEN COUNT(CASE WHEN typeof(CASE WHEN json_type("data", '$."score"') IN ('integer', 'real') THEN json_extract("data", '$."score"') END) = 'real' THEN 1 END) > 0 THEN TOTAL(CASE WHEN json_type("data", '$."score"') IN ('integer', 'real') THEN json_extract("data", '$."score"') END) ELSE (COALESCE(SUM(CASE WHEN json_type("data", '$."score"') IN ('integer', 'real') THEN json_extract("data", '$."score"') END >> 32), 0) + (COALESCE(SUM(CASE WHEN json_type("data", '$."score"') IN ('integer', 'real') THEN json_extract("data", '$."score"') END & 4294967295), 0) >> 32)) * 4294967296 + (COALESCE(SUM(CASE WHEN json_type("data", '$."score"') IN ('integer', 'real') THEN json_extract("data", '$."score"') END & 4294967295), 0) & 4294967295) END) AS "a0", COUNT(*) AS "n" FROM "o_gamescore" WHERE TRUE GROUP BY ("data" -> '$."playerName"') HAVING (CASE WHEN COUNT(CASE WHEN typeof(CASE WHEN json_type("data", '$."score"') IN ('integer', 'real') THEN json_extract("data", '$."score"') END) = 'real' THEN 1 END) > 0 THEN TOTAL(CASE WHEN json_type("data", '$."score"') IN ('integer', 'real') THEN json_extract("data", '$."score"') END) ELSE (COALESCE(SUM(CASE WHEN json_type("data", '$."score"') IN ('integer', 'real') THEN json_extract("data", '$."score"') END >> 32), 0) + (COALESCE(SUM(CASE WHEN json_type("data", '$."score"') IN ('integer', 'real') THEN json_extract("data", '$."score"') END & 4294967295), 0) >> 32)) * 4294967296 + (COALESCE(SUM(CASE WHEN json_type("data", '$."score"') IN ('integer', 'real') THEN json_extract("data", '$."score"') END & 4294967295), 0) & 4294967295) END) > ? ORDER BY "a0" DESC NULLS LAST, json_extract("data", '$."playerName"') ASC NULLS FIRST LIMIT ? OFFSET ?"#, [.int(50), .int(10), .int(5)]),
            postgres: DialectSQL(#"SELECT ("data" #> '{"playerName"}')::text AS "g0", COALESCE(SUM(CASE WHEN jsonb_typeof(("data" #> '{"score"}')) = 'number' THEN ("data" #> '{"score"}')::numeric END), 0) AS "a0", COUNT(*) AS "n" FROM "o_gamescore" WHERE TRUE GROUP BY ("data" #> '{"playerName"}') HAVING COALESCE(SUM(CASE WHEN jsonb_typeof(("data" #> '{"score"}')) = 'number' THEN ("data" #> '{"score"}')::numeric END), 0) > $1 ORDER BY "a0" DESC NULLS LAST, ROW(CASE jsonb_typeof(("data" #> '{"playerName"}')) WHEN 'number' THEN 1 WHEN 'boolean' THEN 1 WHEN 'string' THEN 2 WHEN 'object' THEN 2 WHEN 'array' THEN 2 ELSE 0 END, CASE jsonb_typeof(("data" #> '{"playerName"}')) WHEN 'number' THEN ("data" #> '{"playerName"}')::numeric WHEN 'boolean' THEN ("data" #> '{"playerName"}')::boolean::int END, CASE WHEN jsonb_typeof(("data" #> '{"playerName"}')) IN ('string', 'object', 'array') THEN convert_to(("data" #> '{"playerName"}') #>> '{}', 'UTF8') END) ASC NULLS FIRST LIMIT $2 OFFSET $3"#, [.int(50), .int(10), .int(5)])),
        Case(label: "groupby a Date field by day at +08:00, max of a Date, min of a String",
            aggregation: Aggregation(className: "GameScore", groupBy: [path("played")], functions: [(.maximum, path("played")), (.minimum, path("playerName"))]),
            dayOffsetMinutes: 480,
            sqlite: DialectSQL(#"SELECT date(json_extract("data", '$."played"."iso"'), '+480 minutes') AS "g0", MAX(CASE WHEN json_type("data", '$."played"') = 'object' THEN json_extract("data", '$."played"."iso"') END) AS "a0", MIN(CASE WHEN json_type("data", '$."playerName"') = 'text' THEN json_extract("data", '$."playerName"') END) AS "a1" FROM "o_gamescore" WHERE TRUE GROUP BY date(json_extract("data", '$."played"."iso"'), '+480 minutes') ORDER BY "g0" ASC NULLS FIRST LIMIT ? OFFSET ?"#, [.int(100), .int(0)]),
            postgres: DialectSQL(#"SELECT to_char((CAST((("data" #> '{"played"}') ->> 'iso') AS timestamptz) AT TIME ZONE 'UTC') + INTERVAL '480 minutes', 'YYYY-MM-DD') AS "g0", MAX(CASE WHEN jsonb_typeof(("data" #> '{"played"}')) = 'object' THEN (("data" #> '{"played"}') ->> 'iso') END) AS "a0", MIN((CASE WHEN jsonb_typeof(("data" #> '{"playerName"}')) = 'string' THEN ("data" #>> '{"playerName"}') END) COLLATE "C") AS "a1" FROM "o_gamescore" WHERE TRUE GROUP BY to_char((CAST((("data" #> '{"played"}') ->> 'iso') AS timestamptz) AT TIME ZONE 'UTC') + INTERVAL '480 minutes', 'YYYY-MM-DD') ORDER BY "g0" ASC NULLS FIRST LIMIT $1 OFFSET $2"#, [.int(100), .int(0)])),
        Case(label: "groupby createdAt with average and max of updatedAt",
            aggregation: Aggregation(className: "GameScore", groupBy: [path("createdAt")], functions: [(.average, path("score")), (.maximum, path("updatedAt"))]),
            sqlite: DialectSQL(#"SELECT date(("created_at" + 0) / 1000, 'unixepoch') AS "g0", AVG(CASE WHEN json_type("data", '$."score"') IN ('integer', 'real') THEN json_extract("data", '$."score"') END) AS "a0", MAX("updated_at") AS "a1" FROM "o_gamescore" WHERE TRUE GROUP BY date(("created_at" + 0) / 1000, 'unixepoch') ORDER BY "g0" ASC NULLS FIRST LIMIT ? OFFSET ?"#, [.int(100), .int(0)]),
            postgres: DialectSQL(#"SELECT to_char(TIMESTAMP 'epoch' + ("created_at" + 0) * INTERVAL '1 millisecond', 'YYYY-MM-DD') AS "g0", AVG(CASE WHEN jsonb_typeof(("data" #> '{"score"}')) = 'number' THEN ("data" #> '{"score"}')::numeric END) AS "a0", MAX("updated_at") AS "a1" FROM "o_gamescore" WHERE TRUE GROUP BY to_char(TIMESTAMP 'epoch' + ("created_at" + 0) * INTERVAL '1 millisecond', 'YYYY-MM-DD') ORDER BY "g0" ASC NULLS FIRST LIMIT $1 OFFSET $2"#, [.int(100), .int(0)])),
        Case(label: "having $in on a group key and $exists on a value",
            aggregation: Aggregation(
                className: "GameScore", groupBy: [path("meta.level")], functions: [(.minimum, path("score"))],
                having: .and([.inList(path("meta.level"), [.int(1), .string("x")], negated: false), .exists(FieldPath(field: "_minScore"), true)])
            ),
            sqlite: DialectSQL(#"SELECT ("data" -> '$."meta"."level"') AS "g0", MIN(CASE WHEN json_type("data", '$."score"') IN ('integer', 'real') THEN json_extract("data", '$."score"') END) AS "a0" FROM "o_gamescore" WHERE TRUE GROUP BY ("data" -> '$."meta"."level"') HAVING (((json_type("data", '$."meta"."level"') IN ('integer', 'real') AND json_extract("data", '$."meta"."level"') = ?) OR (json_type("data", '$."meta"."level"') = 'text' AND json_extract("data", '$."meta"."level"') = ?)) AND MIN(CASE WHEN json_type("data", '$."score"') IN ('integer', 'real') THEN json_extract("data", '$."score"') END) IS NOT NULL) ORDER BY json_extract("data", '$."meta"."level"') ASC NULLS FIRST LIMIT ? OFFSET ?"#, [.int(1), .text(#"x"#), .int(100), .int(0)]),
            postgres: DialectSQL(#"SELECT ("data" #> '{"meta","level"}')::text AS "g0", MIN(CASE WHEN jsonb_typeof(("data" #> '{"score"}')) = 'number' THEN ("data" #> '{"score"}')::numeric END) AS "a0" FROM "o_gamescore" WHERE TRUE GROUP BY ("data" #> '{"meta","level"}') HAVING (((jsonb_typeof(("data" #> '{"meta","level"}')) = 'number' AND ("data" #> '{"meta","level"}') = $1::jsonb) OR (jsonb_typeof(("data" #> '{"meta","level"}')) = 'string' AND ("data" #> '{"meta","level"}') = $2::jsonb)) AND MIN(CASE WHEN jsonb_typeof(("data" #> '{"score"}')) = 'number' THEN ("data" #> '{"score"}')::numeric END) IS NOT NULL) ORDER BY ROW(CASE jsonb_typeof(("data" #> '{"meta","level"}')) WHEN 'number' THEN 1 WHEN 'boolean' THEN 1 WHEN 'string' THEN 2 WHEN 'object' THEN 2 WHEN 'array' THEN 2 ELSE 0 END, CASE jsonb_typeof(("data" #> '{"meta","level"}')) WHEN 'number' THEN ("data" #> '{"meta","level"}')::numeric WHEN 'boolean' THEN ("data" #> '{"meta","level"}')::boolean::int END, CASE WHEN jsonb_typeof(("data" #> '{"meta","level"}')) IN ('string', 'object', 'array') THEN convert_to(("data" #> '{"meta","level"}') #>> '{}', 'UTF8') END) ASC NULLS FIRST LIMIT $3 OFFSET $4"#, [.text(#"1"#), .text(#""x""#), .int(100), .int(0)])),
    ]

    @Test("statistics compile to the pinned SQL in both dialects", arguments: cases)
    func pinned(_ test: Case) {
        let sqlite = SQLiteDialect()
        let postgres = PostgresDialect()
        let lite = AggregationCompiler(dialect: sqlite, schema: Self.schema, dayOffsetMinutes: test.dayOffsetMinutes)
        expectSQL(lite.statement(test.aggregation, table: "o_gamescore", where: "TRUE").sql, sqlite, test.sqlite)
        let pg = AggregationCompiler(dialect: postgres, schema: Self.schema, dayOffsetMinutes: test.dayOffsetMinutes)
        expectSQL(pg.statement(test.aggregation, table: "o_gamescore", where: "TRUE").sql, postgres, test.postgres)
    }

    @Test("a result key asked for twice is computed once, and columns come in select-list order")
    func columns() {
        let aggregation = Aggregation(
            className: "GameScore", groupBy: [Self.path("playerName"), Self.path("playerName")],
            functions: [(.sum, Self.path("score")), (.sum, Self.path("score")), (.maximum, Self.path("played"))], countsGroups: true
        )
        let statement = AggregationCompiler(dialect: SQLiteDialect(), schema: Self.schema).statement(aggregation, table: "o_gamescore", where: "TRUE")
        #expect(statement.columns.map(\.key) == ["playerName", "_sumScore", "_maxPlayed", "_count"])
        #expect(statement.columns.map(\.kind) == [.json, .number, .isoDate, .number])
    }

    static let cells: [(AggregationColumn.Kind, SQLValue, JSON)] = [
        (.json, .text(#"{"a":1}"#), ["a": 1]),
        (.json, .null, .null),
        (.number, .int(3), 3),
        (.number, .double(2.5), 2.5),
        (.number, .text("12.50"), 12.5),
        (.text, .text("2024-01-02"), "2024-01-02"),
        (.isoDate, .text("2024-01-02T03:04:05.006Z"), ["__type": "Date", "iso": "2024-01-02T03:04:05.006Z"]),
        (.milliseconds, .int(0), ["__type": "Date", "iso": "1970-01-01T00:00:00.000Z"]),
    ]

    @Test("cells decode to canonical JSON by column kind", arguments: cells)
    func decode(_ kind: AggregationColumn.Kind, _ cell: SQLValue, _ expected: JSON) throws {
        #expect(try AggregationColumn(key: "k", kind: kind).decode(cell) == expected)
    }
}
