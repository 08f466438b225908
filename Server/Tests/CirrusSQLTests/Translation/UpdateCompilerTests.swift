import CirrusModel
@testable import CirrusSQL
import Testing

/// An update body and the document expression each dialect computes for it.
struct UpdateCase: Sendable, CustomTestStringConvertible {
    let body: String
    let sqlite: DialectSQL
    let postgres: DialectSQL

    init(_ body: String, sqlite: DialectSQL, postgres: DialectSQL) {
        self.body = body
        self.sqlite = sqlite
        self.postgres = postgres
    }

    var testDescription: String { body }
}

@Suite("UpdateCompiler")
struct UpdateCompilerTests {
    /// Every operation on a top-level field and on nested paths, pinned for SQLite and PostgreSQL. Each was
    /// run against real rows in both databases and compared with ``FieldOperation/apply(to:)``.
    static let cases: [UpdateCase] = [
        UpdateCase(#"{"name":"x"}"#,
            sqlite: DialectSQL(#"json_set("data", '$."name"', json(?))"#, [.text(#""x""#)]),
            postgres: DialectSQL(#"jsonb_set("data", '{"name"}', $1::jsonb, true)"#, [.text(#""x""#)])),
        UpdateCase(#"{"o":{"k":[1,{"__type":"Date","iso":"2015-06-21T18:02:52.249Z"}]}}"#,
            sqlite: DialectSQL(#"json_set("data", '$."o"', json(?))"#, [.text(#"{"k":[1,{"__type":"Date","iso":"2015-06-21T18:02:52.249Z"}]}"#)]),
            postgres: DialectSQL(#"jsonb_set("data", '{"o"}', $1::jsonb, true)"#, [.text(#"{"k":[1,{"__type":"Date","iso":"2015-06-21T18:02:52.249Z"}]}"#)])),
        UpdateCase(#"{"o.k":1}"#,
            sqlite: DialectSQL(#"json_set("data", '$."o"."k"', json(?))"#, [.text(#"1"#)]),
            postgres: DialectSQL(#"cirrus_set_path("data", '{"o","k"}', $1::jsonb)"#, [.text(#"1"#)])),
        UpdateCase(#"{"list.0.name":"x"}"#,
            sqlite: DialectSQL(#"CASE WHEN json_type("data", '$."list"') = 'array' THEN json_set("data", '$."list"[0]."name"', json(?)) ELSE json_set("data", '$."list"."0"."name"', json(?)) END"#, [.text(#""x""#), .text(#""x""#)]),
            postgres: DialectSQL(#"cirrus_set_path("data", '{"list","0","name"}', $1::jsonb)"#, [.text(#""x""#)])),
        UpdateCase(#"{"name":{"__op":"Delete"}}"#,
            sqlite: DialectSQL(#"json_remove("data", '$."name"')"#, []),
            postgres: DialectSQL(#"("data" #- '{"name"}')"#, [])),
        UpdateCase(#"{"o.k":{"__op":"Delete"}}"#,
            sqlite: DialectSQL(#"json_remove("data", '$."o"."k"')"#, []),
            postgres: DialectSQL(#"cirrus_remove_path("data", '{"o","k"}')"#, [])),
        UpdateCase(#"{"n":{"__op":"Increment"}}"#,
            sqlite: DialectSQL(#"json_set("data", '$."n"', json((SELECT CASE WHEN typeof(n) <> 'real' THEN n WHEN abs(n) > 1.7976931348623157e308 THEN cirrus_refuse('numberOutOfRange', 'The result of the operation is beyond the largest number (1.7976931348623157e308) and cannot be stored.') ELSE cirrus_real(n) END FROM (SELECT (CASE WHEN json_type("data", '$."n"') IN ('integer', 'real') THEN json_extract("data", '$."n"') ELSE 0 END + ?) AS n))))"#, [.int(1)]),
            postgres: DialectSQL(#"jsonb_set("data", '{"n"}', CASE WHEN (jsonb_typeof(("data" #> '{"n"}')) = 'number' AND (("data" #> '{"n"}'))::text ~ '[.eE]') THEN cirrus_double_jsonb((("data" #> '{"n"}'))::float8 + $1::float8) ELSE (SELECT CASE WHEN s BETWEEN -9223372036854775808 AND 9223372036854775807 THEN to_jsonb(s) ELSE cirrus_double_jsonb(s::float8) END FROM (SELECT (CASE WHEN jsonb_typeof(("data" #> '{"n"}')) = 'number' THEN ("data" #> '{"n"}')::numeric ELSE 0 END + $2::numeric) AS s) AS total) END, true)"#, [.int(1), .int(1)])),
        UpdateCase(#"{"n":{"__op":"Increment","amount":2.5}}"#,
            sqlite: DialectSQL(#"json_set("data", '$."n"', json((SELECT CASE WHEN typeof(n) <> 'real' THEN n WHEN abs(n) > 1.7976931348623157e308 THEN cirrus_refuse('numberOutOfRange', 'The result of the operation is beyond the largest number (1.7976931348623157e308) and cannot be stored.') ELSE cirrus_real(n) END FROM (SELECT (CASE WHEN json_type("data", '$."n"') IN ('integer', 'real') THEN json_extract("data", '$."n"') ELSE 0 END + ?) AS n))))"#, [.double(2.5)]),
            postgres: DialectSQL(#"jsonb_set("data", '{"n"}', cirrus_double_jsonb((CASE WHEN jsonb_typeof(("data" #> '{"n"}')) = 'number' THEN ("data" #> '{"n"}')::numeric ELSE 0 END)::float8 + $1::float8), true)"#, [.double(2.5)])),
        UpdateCase(#"{"n":{"__op":"Decrement","amount":3}}"#,
            sqlite: DialectSQL(#"json_set("data", '$."n"', json((SELECT CASE WHEN typeof(n) <> 'real' THEN n WHEN abs(n) > 1.7976931348623157e308 THEN cirrus_refuse('numberOutOfRange', 'The result of the operation is beyond the largest number (1.7976931348623157e308) and cannot be stored.') ELSE cirrus_real(n) END FROM (SELECT (CASE WHEN json_type("data", '$."n"') IN ('integer', 'real') THEN json_extract("data", '$."n"') ELSE 0 END + ?) AS n))))"#, [.int(-3)]),
            postgres: DialectSQL(#"jsonb_set("data", '{"n"}', CASE WHEN (jsonb_typeof(("data" #> '{"n"}')) = 'number' AND (("data" #> '{"n"}'))::text ~ '[.eE]') THEN cirrus_double_jsonb((("data" #> '{"n"}'))::float8 + $1::float8) ELSE (SELECT CASE WHEN s BETWEEN -9223372036854775808 AND 9223372036854775807 THEN to_jsonb(s) ELSE cirrus_double_jsonb(s::float8) END FROM (SELECT (CASE WHEN jsonb_typeof(("data" #> '{"n"}')) = 'number' THEN ("data" #> '{"n"}')::numeric ELSE 0 END + $2::numeric) AS s) AS total) END, true)"#, [.int(-3), .int(-3)])),
        UpdateCase(#"{"o.n":{"__op":"Increment"}}"#,
            sqlite: DialectSQL(#"json_set("data", '$."o"."n"', json((SELECT CASE WHEN typeof(n) <> 'real' THEN n WHEN abs(n) > 1.7976931348623157e308 THEN cirrus_refuse('numberOutOfRange', 'The result of the operation is beyond the largest number (1.7976931348623157e308) and cannot be stored.') ELSE cirrus_real(n) END FROM (SELECT (CASE WHEN json_type("data", '$."o"."n"') IN ('integer', 'real') THEN json_extract("data", '$."o"."n"') ELSE 0 END + ?) AS n))))"#, [.int(1)]),
            postgres: DialectSQL(#"cirrus_set_path("data", '{"o","n"}', CASE WHEN (jsonb_typeof(("data" #> '{"o","n"}')) = 'number' AND (("data" #> '{"o","n"}'))::text ~ '[.eE]') THEN cirrus_double_jsonb((("data" #> '{"o","n"}'))::float8 + $1::float8) ELSE (SELECT CASE WHEN s BETWEEN -9223372036854775808 AND 9223372036854775807 THEN to_jsonb(s) ELSE cirrus_double_jsonb(s::float8) END FROM (SELECT (CASE WHEN jsonb_typeof(("data" #> '{"o","n"}')) = 'number' THEN ("data" #> '{"o","n"}')::numeric ELSE 0 END + $2::numeric) AS s) AS total) END)"#, [.int(1), .int(1)])),
        UpdateCase(#"{"n":{"__op":"BitAnd","value":6}}"#,
            sqlite: DialectSQL(#"json_set("data", '$."n"', ((CASE WHEN json_type("data", '$."n"') = 'integer' THEN json_extract("data", '$."n"') WHEN json_type("data", '$."n"') = 'real' AND abs(json_extract("data", '$."n"')) < 9223372036854775808.0 THEN CAST(json_extract("data", '$."n"') AS INTEGER) ELSE 0 END) & ?))"#, [.int(6)]),
            postgres: DialectSQL(#"jsonb_set("data", '{"n"}', to_jsonb(COALESCE(CASE WHEN jsonb_typeof(("data" #> '{"n"}')) = 'number' THEN CASE WHEN trunc(("data" #> '{"n"}')::numeric) BETWEEN -9223372036854775808 AND 9223372036854775807 THEN trunc(("data" #> '{"n"}')::numeric)::bigint END END, 0) & $1::bigint), true)"#, [.int(6)])),
        UpdateCase(#"{"n":{"__op":"BitOr","value":6}}"#,
            sqlite: DialectSQL(#"json_set("data", '$."n"', ((CASE WHEN json_type("data", '$."n"') = 'integer' THEN json_extract("data", '$."n"') WHEN json_type("data", '$."n"') = 'real' AND abs(json_extract("data", '$."n"')) < 9223372036854775808.0 THEN CAST(json_extract("data", '$."n"') AS INTEGER) ELSE 0 END) | ?))"#, [.int(6)]),
            postgres: DialectSQL(#"jsonb_set("data", '{"n"}', to_jsonb(COALESCE(CASE WHEN jsonb_typeof(("data" #> '{"n"}')) = 'number' THEN CASE WHEN trunc(("data" #> '{"n"}')::numeric) BETWEEN -9223372036854775808 AND 9223372036854775807 THEN trunc(("data" #> '{"n"}')::numeric)::bigint END END, 0) | $1::bigint), true)"#, [.int(6)])),
        UpdateCase(#"{"n":{"__op":"BitXor","value":6}}"#,
            sqlite: DialectSQL(#"json_set("data", '$."n"', (((CASE WHEN json_type("data", '$."n"') = 'integer' THEN json_extract("data", '$."n"') WHEN json_type("data", '$."n"') = 'real' AND abs(json_extract("data", '$."n"')) < 9223372036854775808.0 THEN CAST(json_extract("data", '$."n"') AS INTEGER) ELSE 0 END) | ?) - ((CASE WHEN json_type("data", '$."n"') = 'integer' THEN json_extract("data", '$."n"') WHEN json_type("data", '$."n"') = 'real' AND abs(json_extract("data", '$."n"')) < 9223372036854775808.0 THEN CAST(json_extract("data", '$."n"') AS INTEGER) ELSE 0 END) & ?)))"#, [.int(6), .int(6)]),
            postgres: DialectSQL(#"jsonb_set("data", '{"n"}', to_jsonb(COALESCE(CASE WHEN jsonb_typeof(("data" #> '{"n"}')) = 'number' THEN CASE WHEN trunc(("data" #> '{"n"}')::numeric) BETWEEN -9223372036854775808 AND 9223372036854775807 THEN trunc(("data" #> '{"n"}')::numeric)::bigint END END, 0) # $1::bigint), true)"#, [.int(6)])),
        UpdateCase(#"{"tags":{"__op":"Add","objects":["a",1]}}"#,
            sqlite: DialectSQL(#"json_set("data", '$."tags"', json_insert((CASE WHEN json_type("data", '$."tags"') = 'array' THEN ("data" -> '$."tags"') ELSE '[]' END), '$[#]', json(?), '$[#]', json(?)))"#, [.text(#""a""#), .text(#"1"#)]),
            postgres: DialectSQL(#"jsonb_set("data", '{"tags"}', (CASE WHEN jsonb_typeof(("data" #> '{"tags"}')) = 'array' THEN ("data" #> '{"tags"}') ELSE '[]'::jsonb END || $1::jsonb), true)"#, [.text(#"["a",1]"#)])),
        UpdateCase(#"{"tags":{"__op":"AddUnique","objects":["a","a",1]}}"#,
            sqlite: DialectSQL(#"json_set("data", '$."tags"', json((SELECT json_group_array(json(x)) FROM (SELECT (CASE WHEN json_type("data", '$."tags"') = 'array' THEN ("data" -> '$."tags"') ELSE '[]' END) -> e1.fullkey AS x FROM json_each((CASE WHEN json_type("data", '$."tags"') = 'array' THEN ("data" -> '$."tags"') ELSE '[]' END)) AS e1 UNION ALL SELECT ? WHERE NOT EXISTS (SELECT 1 FROM json_each((CASE WHEN json_type("data", '$."tags"') = 'array' THEN ("data" -> '$."tags"') ELSE '[]' END)) AS e1 WHERE (e1.type = 'text' AND e1.value = ?)) UNION ALL SELECT ? WHERE NOT EXISTS (SELECT 1 FROM json_each((CASE WHEN json_type("data", '$."tags"') = 'array' THEN ("data" -> '$."tags"') ELSE '[]' END)) AS e1 WHERE (e1.type IN ('integer', 'real') AND e1.value = ?))))))"#, [.text(#""a""#), .text(#"a"#), .text(#"1"#), .int(1)]),
            postgres: DialectSQL(#"jsonb_set("data", '{"tags"}', (CASE WHEN jsonb_typeof(("data" #> '{"tags"}')) = 'array' THEN ("data" #> '{"tags"}') ELSE '[]'::jsonb END || COALESCE((SELECT jsonb_agg(n.value ORDER BY n.position) FROM jsonb_array_elements($1::jsonb) WITH ORDINALITY AS n(value, position) WHERE NOT EXISTS (SELECT 1 FROM jsonb_array_elements(CASE WHEN jsonb_typeof(("data" #> '{"tags"}')) = 'array' THEN ("data" #> '{"tags"}') ELSE '[]'::jsonb END) AS e1(value) WHERE e1.value = n.value)), '[]'::jsonb)), true)"#, [.text(#"["a",1]"#)])),
        UpdateCase(#"{"tags":{"__op":"Remove","objects":["a",1]}}"#,
            sqlite: DialectSQL(#"json_set("data", '$."tags"', json((SELECT json_group_array(json((CASE WHEN json_type("data", '$."tags"') = 'array' THEN ("data" -> '$."tags"') ELSE '[]' END) -> e1.fullkey)) FROM json_each((CASE WHEN json_type("data", '$."tags"') = 'array' THEN ("data" -> '$."tags"') ELSE '[]' END)) AS e1 WHERE NOT COALESCE(((e1.type = 'text' AND e1.value = ?) OR (e1.type IN ('integer', 'real') AND e1.value = ?)), FALSE))))"#, [.text(#"a"#), .int(1)]),
            postgres: DialectSQL(#"jsonb_set("data", '{"tags"}', (SELECT COALESCE(jsonb_agg(e1.value ORDER BY e1.position), '[]'::jsonb) FROM jsonb_array_elements(CASE WHEN jsonb_typeof(("data" #> '{"tags"}')) = 'array' THEN ("data" #> '{"tags"}') ELSE '[]'::jsonb END) WITH ORDINALITY AS e1(value, position) WHERE NOT COALESCE(((jsonb_typeof(e1.value) = 'string' AND e1.value = $1::jsonb) OR (jsonb_typeof(e1.value) = 'number' AND e1.value = $2::jsonb)), FALSE)), true)"#, [.text(#""a""#), .text(#"1"#)])),
        UpdateCase(#"{"name":"x","n":{"__op":"Increment"}}"#,
            sqlite: DialectSQL(#"json_set(json_set("data", '$."n"', json((SELECT CASE WHEN typeof(n) <> 'real' THEN n WHEN abs(n) > 1.7976931348623157e308 THEN cirrus_refuse('numberOutOfRange', 'The result of the operation is beyond the largest number (1.7976931348623157e308) and cannot be stored.') ELSE cirrus_real(n) END FROM (SELECT (CASE WHEN json_type("data", '$."n"') IN ('integer', 'real') THEN json_extract("data", '$."n"') ELSE 0 END + ?) AS n)))), '$."name"', json(?))"#, [.int(1), .text(#""x""#)]),
            postgres: DialectSQL(#"jsonb_set(jsonb_set("data", '{"n"}', CASE WHEN (jsonb_typeof(("data" #> '{"n"}')) = 'number' AND (("data" #> '{"n"}'))::text ~ '[.eE]') THEN cirrus_double_jsonb((("data" #> '{"n"}'))::float8 + $1::float8) ELSE (SELECT CASE WHEN s BETWEEN -9223372036854775808 AND 9223372036854775807 THEN to_jsonb(s) ELSE cirrus_double_jsonb(s::float8) END FROM (SELECT (CASE WHEN jsonb_typeof(("data" #> '{"n"}')) = 'number' THEN ("data" #> '{"n"}')::numeric ELSE 0 END + $2::numeric) AS s) AS total) END, true), '{"name"}', $3::jsonb, true)"#, [.int(1), .int(1), .text(#""x""#)])),
    ]

    @Test("each operation compiles to the pinned document expression in both dialects", arguments: cases)
    func operation(_ pinned: UpdateCase) throws {
        let update = try ObjectUpdate(body: JSONParser.parse(pinned.body), isCreate: false)
        let sqlite = try #require(UpdateCompiler(dialect: SQLiteDialect(), schema: nil).document(after: update.operations))
        let postgres = try #require(UpdateCompiler(dialect: PostgresDialect(), schema: nil).document(after: update.operations))
        expectSQL(sqlite, SQLiteDialect(), pinned.sqlite)
        expectSQL(postgres, PostgresDialect(), pinned.postgres)
    }

    @Test("an update that only edits relations leaves the document alone")
    func relationsOnly() throws {
        let body: JSON = ["r": ["__op": "AddRelation", "objects": [["__type": "Pointer", "className": "_User", "objectId": "u1"]]]]
        let update = try ObjectUpdate(body: body, isCreate: false)
        #expect(UpdateCompiler(dialect: SQLiteDialect(), schema: nil).document(after: update.operations) == nil)
        #expect(UpdateCompiler(dialect: PostgresDialect(), schema: nil).document(after: update.operations) == nil)
    }

    @Test("no operations give no document")
    func empty() {
        #expect(UpdateCompiler(dialect: SQLiteDialect(), schema: nil).document(after: []) == nil)
    }

    @Test("repeated values of AddUnique are sent once, first occurrence first, numbers compared by value")
    func distinct() {
        let values: [Value] = [.int(1), .string("a"), .double(1.0), .string("a"), .int(2)]
        #expect(UpdateCompiler.distinct(values) == [.int(1), .string("a"), .int(2)])
    }
}
