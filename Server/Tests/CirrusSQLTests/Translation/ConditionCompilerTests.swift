import CirrusModel
@testable import CirrusSQL
import Testing

@Suite("ConditionCompiler: logic and built-in columns")
struct ConditionCompilerTests {
    /// Empty `where`, `$or`/`$and`/`$nor`, arrays as implicit AND, and the built-in columns objectId,
    /// createdAt and updatedAt, pinned for SQLite and PostgreSQL.
    static let cases: [ConditionCase] = [
        ConditionCase(#"{}"#, typed: false,
            sqlite: DialectSQL(#"TRUE"#, []),
            postgres: DialectSQL(#"TRUE"#, [])),
        ConditionCase(#"{"$or":[{"n":1},{"name":"x"}]}"#, typed: true,
            sqlite: DialectSQL(#"(json_extract("data", '$."n"') = ? OR json_extract("data", '$."name"') = ?)"#, [.int(1), .text(#"x"#)]),
            postgres: DialectSQL(#"(("data" #> '{"n"}') = $1::jsonb OR ("data" #> '{"name"}') = $2::jsonb)"#, [.text(#"1"#), .text(#""x""#)])),
        ConditionCase(#"{"$and":[{"n":1},{"name":"x"}]}"#, typed: true,
            sqlite: DialectSQL(#"(json_extract("data", '$."n"') = ? AND json_extract("data", '$."name"') = ?)"#, [.int(1), .text(#"x"#)]),
            postgres: DialectSQL(#"(("data" #> '{"n"}') = $1::jsonb AND ("data" #> '{"name"}') = $2::jsonb)"#, [.text(#"1"#), .text(#""x""#)])),
        ConditionCase(#"{"$nor":[{"n":1},{"name":"x"}]}"#, typed: true,
            sqlite: DialectSQL(#"((json_extract("data", '$."n"') = ? OR json_extract("data", '$."name"') = ?)) IS NOT TRUE"#, [.int(1), .text(#"x"#)]),
            postgres: DialectSQL(#"((("data" #> '{"n"}') = $1::jsonb OR ("data" #> '{"name"}') = $2::jsonb)) IS NOT TRUE"#, [.text(#"1"#), .text(#""x""#)])),
        ConditionCase(#"[{"n":1},{"name":"x"}]"#, typed: true,
            sqlite: DialectSQL(#"(json_extract("data", '$."n"') = ? AND json_extract("data", '$."name"') = ?)"#, [.int(1), .text(#"x"#)]),
            postgres: DialectSQL(#"(("data" #> '{"n"}') = $1::jsonb AND ("data" #> '{"name"}') = $2::jsonb)"#, [.text(#"1"#), .text(#""x""#)])),
        ConditionCase(#"{"objectId":"abc"}"#, typed: false,
            sqlite: DialectSQL(#""id" = ?"#, [.text(#"abc"#)]),
            postgres: DialectSQL(#""id" = $1"#, [.text(#"abc"#)])),
        ConditionCase(#"{"objectId":{"$in":["a","b"]}}"#, typed: false,
            sqlite: DialectSQL(#""id" IN (?, ?)"#, [.text(#"a"#), .text(#"b"#)]),
            postgres: DialectSQL(#""id" IN ($1, $2)"#, [.text(#"a"#), .text(#"b"#)])),
        ConditionCase(#"{"objectId":{"$in":["a","b","c","d","e","f","g","h","i"]}}"#, typed: false,
            sqlite: DialectSQL(#""id" IN (SELECT value FROM json_each(?))"#, [.text(#"["a","b","c","d","e","f","g","h","i"]"#)]),
            postgres: DialectSQL(#""id" IN (SELECT (jsonb_array_elements_text($1::jsonb)))"#, [.text(#"["a","b","c","d","e","f","g","h","i"]"#)])),
        ConditionCase(#"{"name":{"$in":["a","b","c","d","e","f","g","h","i"]}}"#, typed: true,
            sqlite: DialectSQL(#"(json_type("data", '$."name"') = 'text' AND json_extract("data", '$."name"') IN (SELECT value FROM json_each(?)))"#, [.text(#"["a","b","c","d","e","f","g","h","i"]"#)]),
            postgres: DialectSQL(#"(jsonb_typeof(("data" #> '{"name"}')) = 'string' AND ("data" #> '{"name"}') IN (SELECT jsonb_array_elements($1::jsonb)))"#, [.text(#"["a","b","c","d","e","f","g","h","i"]"#)])),
        ConditionCase(#"{"tags":{"$all":["a","b","c","d","e","f","g","h","i",1]}}"#, typed: false,
            sqlite: DialectSQL(#"(((SELECT COUNT(DISTINCT e1.value) FROM json_each(CASE WHEN json_type("data", '$."tags"') = 'array' THEN ("data" -> '$."tags"') WHEN json_type("data", '$."tags"') IS NOT NULL THEN json_array(("data" -> '$."tags"')) END) AS e1 WHERE e1.type IN ('text') AND e1.value IN (SELECT value FROM json_each(?))) = ?) AND ((SELECT COUNT(DISTINCT e2.value) FROM json_each(CASE WHEN json_type("data", '$."tags"') = 'array' THEN ("data" -> '$."tags"') WHEN json_type("data", '$."tags"') IS NOT NULL THEN json_array(("data" -> '$."tags"')) END) AS e2 WHERE e2.type IN ('integer', 'real') AND e2.value IN (SELECT value FROM json_each(?))) = ?))"#, [.text(#"["a","b","c","d","e","f","g","h","i"]"#), .int(9), .text(#"[1]"#), .int(1)]),
            postgres: DialectSQL(#"(((SELECT COUNT(*) FROM (SELECT e1.value FROM jsonb_array_elements(CASE WHEN jsonb_typeof(("data" #> '{"tags"}')) = 'array' THEN ("data" #> '{"tags"}') WHEN ("data" #> '{"tags"}') IS NOT NULL THEN jsonb_build_array(("data" #> '{"tags"}')) END) AS e1(value) WHERE jsonb_typeof(e1.value) = 'string' INTERSECT SELECT jsonb_array_elements($1::jsonb)) AS e1_common) = $2) AND ((SELECT COUNT(*) FROM (SELECT e2.value FROM jsonb_array_elements(CASE WHEN jsonb_typeof(("data" #> '{"tags"}')) = 'array' THEN ("data" #> '{"tags"}') WHEN ("data" #> '{"tags"}') IS NOT NULL THEN jsonb_build_array(("data" #> '{"tags"}')) END) AS e2(value) WHERE jsonb_typeof(e2.value) = 'number' INTERSECT SELECT jsonb_array_elements($3::jsonb)) AS e2_common) = $4))"#, [.text(#"["a","b","c","d","e","f","g","h","i"]"#), .int(9), .text(#"[1]"#), .int(1)])),
        ConditionCase(#"{"objectId":{"$nin":["a"]}}"#, typed: false,
            sqlite: DialectSQL(#"("id" = ?) IS NOT TRUE"#, [.text(#"a"#)]),
            postgres: DialectSQL(#"("id" = $1) IS NOT TRUE"#, [.text(#"a"#)])),
        ConditionCase(#"{"objectId":{"$regex":"^a"}}"#, typed: false,
            sqlite: DialectSQL(#"cirrus_regexp(?, ?, "id")"#, [.text(#"^a"#), .text(#""#)]),
            postgres: DialectSQL(#""id" ~ $1"#, [.text(#"(?p)^a"#)])),
        ConditionCase(#"{"objectId":{"$exists":false}}"#, typed: false,
            sqlite: DialectSQL(#"FALSE"#, []),
            postgres: DialectSQL(#"FALSE"#, [])),
        ConditionCase(#"{"createdAt":{"$gte":{"__type":"Date","iso":"2015-06-21T18:02:52.249Z"}}}"#, typed: false,
            sqlite: DialectSQL(#""created_at" >= ?"#, [.int(1434909772249)]),
            postgres: DialectSQL(#""created_at" >= $1"#, [.int(1434909772249)])),
        ConditionCase(#"{"updatedAt":{"$lt":"2015-06-21T18:02:52.249Z"}}"#, typed: false,
            sqlite: DialectSQL(#""updated_at" < ?"#, [.int(1434909772249)]),
            postgres: DialectSQL(#""updated_at" < $1"#, [.int(1434909772249)])),
        ConditionCase(#"{"createdAt":{"$ne":"yesterday"}}"#, typed: false,
            sqlite: DialectSQL(#"TRUE"#, []),
            postgres: DialectSQL(#"TRUE"#, [])),
    ]

    @Test("logic and built-in columns compile to the pinned SQL and bindings in both dialects", arguments: cases)
    func logic(_ pinned: ConditionCase) throws {
        try pinned.check()
    }

    @Test("every array iteration in one statement gets its own alias")
    func aliasesAreUnique() throws {
        let condition = try Condition(where: ["a": 1, "b": 2])
        let text = ConditionCompiler(dialect: SQLiteDialect(), schema: nil).compile(condition).description
        #expect(text.contains(" AS e1 WHERE"))
        #expect(text.contains(" AS e2 WHERE"))
        #expect(!text.contains(" AS e3 "))
    }

    @Test("compilers that share an alias counter continue its numbering")
    func sharedAliasCounter() throws {
        let aliases = AliasCounter()
        let condition = try Condition(where: ["a": 1])
        _ = ConditionCompiler(dialect: PostgresDialect(), schema: nil, aliases: aliases).compile(condition)
        let second = ConditionCompiler(dialect: PostgresDialect(), schema: nil, aliases: aliases).compile(condition)
        #expect(second.description.contains(" AS e2(value)"))
        #expect(!second.description.contains(" AS e1(value)"))
    }

    @Test("a schema that knows the field drops the branch that cannot match")
    func schemaRemovesBranches() throws {
        let condition = try Condition(where: ["name": "x", "tags": "x"])
        let text = ConditionCompiler(dialect: SQLiteDialect(), schema: ConditionCase.schema).compile(condition).description
        #expect(!text.contains("json_each((\"data\" -> '$.\"name\"'))"))
        #expect(!text.contains("json_extract(\"data\", '$.\"tags\"') = ?"))
        #expect(text.contains("json_each((\"data\" -> '$.\"tags\"'))"))
    }

    @Test("ordering comparisons map to the scalar operators and equality stands for both = and <>")
    func scalarOperators() {
        #expect(ScalarOperator(.lessThan) == .lessThan)
        #expect(ScalarOperator(.lessThanOrEqual) == .lessThanOrEqual)
        #expect(ScalarOperator(.greaterThan) == .greaterThan)
        #expect(ScalarOperator(.greaterThanOrEqual) == .greaterThanOrEqual)
        #expect(ScalarOperator(.equal) == .equal)
        #expect(ScalarOperator(.notEqual) == .equal)
    }
}
