import CirrusModel
import CirrusSQL
import Testing

@Suite("ConditionCompiler: equality on every value type")
struct ConditionCompilerEqualityTests {
    /// Equality of each value type, on fields of unknown shape (field or element), of scalar shape and of
    /// Array shape, pinned for SQLite and PostgreSQL. Each was run against real rows in both databases.
    static let cases: [ConditionCase] = [
        ConditionCase(#"{"name":"x"}"#, typed: false,
            sqlite: DialectSQL(#"((json_type("data", '$."name"') = 'text' AND json_extract("data", '$."name"') = ?) OR (json_type("data", '$."name"') = 'array' AND EXISTS (SELECT 1 FROM json_each(("data" -> '$."name"')) AS e1 WHERE (e1.type = 'text' AND e1.value = ?))))"#, [.text(#"x"#), .text(#"x"#)]),
            postgres: DialectSQL(#"((jsonb_typeof(("data" #> '{"name"}')) = 'string' AND ("data" #> '{"name"}') = $1::jsonb) OR EXISTS (SELECT 1 FROM jsonb_array_elements(CASE WHEN jsonb_typeof(("data" #> '{"name"}')) = 'array' THEN ("data" #> '{"name"}') ELSE '[]'::jsonb END) AS e1(value) WHERE (jsonb_typeof(e1.value) = 'string' AND e1.value = $2::jsonb)))"#, [.text(#""x""#), .text(#""x""#)])),
        ConditionCase(#"{"name":"x"}"#, typed: true,
            sqlite: DialectSQL(#"json_extract("data", '$."name"') = ?"#, [.text(#"x"#)]),
            postgres: DialectSQL(#"("data" #> '{"name"}') = $1::jsonb"#, [.text(#""x""#)])),
        ConditionCase(#"{"tags":"x"}"#, typed: true,
            sqlite: DialectSQL(#"(json_type("data", '$."tags"') = 'array' AND EXISTS (SELECT 1 FROM json_each(("data" -> '$."tags"')) AS e1 WHERE (e1.type = 'text' AND e1.value = ?)))"#, [.text(#"x"#)]),
            postgres: DialectSQL(#"((("data" #> '{"tags"}') @> $1::jsonb) AND EXISTS (SELECT 1 FROM jsonb_array_elements(CASE WHEN jsonb_typeof(("data" #> '{"tags"}')) = 'array' THEN ("data" #> '{"tags"}') ELSE '[]'::jsonb END) AS e1(value) WHERE (jsonb_typeof(e1.value) = 'string' AND e1.value = $2::jsonb)))"#, [.text(#"["x"]"#), .text(#""x""#)])),
        ConditionCase(#"{"tags":["x","y"]}"#, typed: true,
            sqlite: DialectSQL(#"((json_type("data", '$."tags"') = 'array' AND (NOT EXISTS (SELECT fullkey, CASE WHEN type IN ('integer', 'real') THEN 'number' ELSE type END, atom FROM json_tree(("data" -> '$."tags"')) EXCEPT SELECT fullkey, CASE WHEN type IN ('integer', 'real') THEN 'number' ELSE type END, atom FROM json_tree(?)) AND NOT EXISTS (SELECT fullkey, CASE WHEN type IN ('integer', 'real') THEN 'number' ELSE type END, atom FROM json_tree(?) EXCEPT SELECT fullkey, CASE WHEN type IN ('integer', 'real') THEN 'number' ELSE type END, atom FROM json_tree(("data" -> '$."tags"'))))) OR (json_type("data", '$."tags"') = 'array' AND EXISTS (SELECT 1 FROM json_each(("data" -> '$."tags"')) AS e1 WHERE (e1.type = 'array' AND (NOT EXISTS (SELECT fullkey, CASE WHEN type IN ('integer', 'real') THEN 'number' ELSE type END, atom FROM json_tree(CASE WHEN e1.type IN ('object', 'array') THEN json(e1.value) END) EXCEPT SELECT fullkey, CASE WHEN type IN ('integer', 'real') THEN 'number' ELSE type END, atom FROM json_tree(?)) AND NOT EXISTS (SELECT fullkey, CASE WHEN type IN ('integer', 'real') THEN 'number' ELSE type END, atom FROM json_tree(?) EXCEPT SELECT fullkey, CASE WHEN type IN ('integer', 'real') THEN 'number' ELSE type END, atom FROM json_tree(CASE WHEN e1.type IN ('object', 'array') THEN json(e1.value) END)))))))"#, [.text(#"["x","y"]"#), .text(#"["x","y"]"#), .text(#"["x","y"]"#), .text(#"["x","y"]"#)]),
            postgres: DialectSQL(#"((jsonb_typeof(("data" #> '{"tags"}')) = 'array' AND ("data" #> '{"tags"}') = $1::jsonb) OR EXISTS (SELECT 1 FROM jsonb_array_elements(CASE WHEN jsonb_typeof(("data" #> '{"tags"}')) = 'array' THEN ("data" #> '{"tags"}') ELSE '[]'::jsonb END) AS e1(value) WHERE (jsonb_typeof(e1.value) = 'array' AND e1.value = $2::jsonb)))"#, [.text(#"["x","y"]"#), .text(#"["x","y"]"#)])),
        ConditionCase(#"{"n":1}"#, typed: false,
            sqlite: DialectSQL(#"((json_type("data", '$."n"') IN ('integer', 'real') AND json_extract("data", '$."n"') = ?) OR (json_type("data", '$."n"') = 'array' AND EXISTS (SELECT 1 FROM json_each(("data" -> '$."n"')) AS e1 WHERE (e1.type IN ('integer', 'real') AND e1.value = ?))))"#, [.int(1), .int(1)]),
            postgres: DialectSQL(#"((jsonb_typeof(("data" #> '{"n"}')) = 'number' AND ("data" #> '{"n"}') = $1::jsonb) OR EXISTS (SELECT 1 FROM jsonb_array_elements(CASE WHEN jsonb_typeof(("data" #> '{"n"}')) = 'array' THEN ("data" #> '{"n"}') ELSE '[]'::jsonb END) AS e1(value) WHERE (jsonb_typeof(e1.value) = 'number' AND e1.value = $2::jsonb)))"#, [.text(#"1"#), .text(#"1"#)])),
        ConditionCase(#"{"n":1.5}"#, typed: true,
            sqlite: DialectSQL(#"json_extract("data", '$."n"') = ?"#, [.double(1.5)]),
            postgres: DialectSQL(#"("data" #> '{"n"}') = $1::jsonb"#, [.text(#"1.5"#)])),
        ConditionCase(#"{"flag":true}"#, typed: true,
            sqlite: DialectSQL(#"json_type("data", '$."flag"') = 'true'"#, []),
            postgres: DialectSQL(#"("data" #> '{"flag"}') = 'true'::jsonb"#, [])),
        ConditionCase(#"{"flag":false}"#, typed: true,
            sqlite: DialectSQL(#"json_type("data", '$."flag"') = 'false'"#, []),
            postgres: DialectSQL(#"("data" #> '{"flag"}') = 'false'::jsonb"#, [])),
        ConditionCase(#"{"v":null}"#, typed: false,
            sqlite: DialectSQL(#"(NOT json_type("data", '$."v"') IS NOT NULL OR json_type("data", '$."v"') = 'null')"#, []),
            postgres: DialectSQL(#"(NOT ("data" #> '{"v"}') IS NOT NULL OR jsonb_typeof(("data" #> '{"v"}')) = 'null')"#, [])),
        ConditionCase(#"{"d":{"__type":"Date","iso":"2015-06-21T18:02:52.249Z"}}"#, typed: true,
            sqlite: DialectSQL(#"json_extract("data", '$."d"."iso"') = ?"#, [.text(#"2015-06-21T18:02:52.249Z"#)]),
            postgres: DialectSQL(#"(("data" #> '{"d"}') -> 'iso') = $1::jsonb"#, [.text(#""2015-06-21T18:02:52.249Z""#)])),
        ConditionCase(#"{"p":{"__type":"Pointer","className":"_User","objectId":"u1"}}"#, typed: true,
            sqlite: DialectSQL(#"(json_type("data", '$."p"') = 'object' AND json_extract("data", '$."p"."className"') = ? AND json_extract("data", '$."p"."objectId"') = ?)"#, [.text(#"_User"#), .text(#"u1"#)]),
            postgres: DialectSQL(#"(jsonb_typeof(("data" #> '{"p"}')) = 'object' AND (("data" #> '{"p"}') -> 'className') = $1::jsonb AND (("data" #> '{"p"}') -> 'objectId') = $2::jsonb)"#, [.text(#""_User""#), .text(#""u1""#)])),
        ConditionCase(#"{"f":{"__type":"File","id":"f1"}}"#, typed: true,
            sqlite: DialectSQL(#"(json_type("data", '$."f"') = 'object' AND json_extract("data", '$."f"."id"') = ?)"#, [.text(#"f1"#)]),
            postgres: DialectSQL(#"(jsonb_typeof(("data" #> '{"f"}')) = 'object' AND (("data" #> '{"f"}') -> 'id') = $1::jsonb)"#, [.text(#""f1""#)])),
        ConditionCase(#"{"f":{"__type":"File","name":"a.txt","url":"http://x/a.txt"}}"#, typed: true,
            sqlite: DialectSQL(#"(json_type("data", '$."f"') = 'object' AND json_extract("data", '$."f"."name"') = ? AND json_extract("data", '$."f"."url"') = ?)"#, [.text(#"a.txt"#), .text(#"http://x/a.txt"#)]),
            postgres: DialectSQL(#"(jsonb_typeof(("data" #> '{"f"}')) = 'object' AND (("data" #> '{"f"}') -> 'name') = $1::jsonb AND (("data" #> '{"f"}') -> 'url') = $2::jsonb)"#, [.text(#""a.txt""#), .text(#""http://x/a.txt""#)])),
        ConditionCase(#"{"g":{"__type":"GeoPoint","latitude":1,"longitude":2}}"#, typed: true,
            sqlite: DialectSQL(#"(json_type("data", '$."g"') = 'object' AND (NOT EXISTS (SELECT fullkey, CASE WHEN type IN ('integer', 'real') THEN 'number' ELSE type END, atom FROM json_tree(("data" -> '$."g"')) EXCEPT SELECT fullkey, CASE WHEN type IN ('integer', 'real') THEN 'number' ELSE type END, atom FROM json_tree(?)) AND NOT EXISTS (SELECT fullkey, CASE WHEN type IN ('integer', 'real') THEN 'number' ELSE type END, atom FROM json_tree(?) EXCEPT SELECT fullkey, CASE WHEN type IN ('integer', 'real') THEN 'number' ELSE type END, atom FROM json_tree(("data" -> '$."g"')))))"#, [.text(#"{"__type":"GeoPoint","latitude":1.0,"longitude":2.0}"#), .text(#"{"__type":"GeoPoint","latitude":1.0,"longitude":2.0}"#)]),
            postgres: DialectSQL(#"(jsonb_typeof(("data" #> '{"g"}')) = 'object' AND ("data" #> '{"g"}') = $1::jsonb)"#, [.text(#"{"__type":"GeoPoint","latitude":1.0,"longitude":2.0}"#)])),
        ConditionCase(#"{"b":{"__type":"Bytes","base64":"AAEC"}}"#, typed: true,
            sqlite: DialectSQL(#"(json_type("data", '$."b"') = 'object' AND (NOT EXISTS (SELECT fullkey, CASE WHEN type IN ('integer', 'real') THEN 'number' ELSE type END, atom FROM json_tree(("data" -> '$."b"')) EXCEPT SELECT fullkey, CASE WHEN type IN ('integer', 'real') THEN 'number' ELSE type END, atom FROM json_tree(?)) AND NOT EXISTS (SELECT fullkey, CASE WHEN type IN ('integer', 'real') THEN 'number' ELSE type END, atom FROM json_tree(?) EXCEPT SELECT fullkey, CASE WHEN type IN ('integer', 'real') THEN 'number' ELSE type END, atom FROM json_tree(("data" -> '$."b"')))))"#, [.text(#"{"__type":"Bytes","base64":"AAEC"}"#), .text(#"{"__type":"Bytes","base64":"AAEC"}"#)]),
            postgres: DialectSQL(#"(jsonb_typeof(("data" #> '{"b"}')) = 'object' AND ("data" #> '{"b"}') = $1::jsonb)"#, [.text(#"{"__type":"Bytes","base64":"AAEC"}"#)])),
        ConditionCase(#"{"o":{"k":1}}"#, typed: true,
            sqlite: DialectSQL(#"(json_type("data", '$."o"') = 'object' AND (NOT EXISTS (SELECT fullkey, CASE WHEN type IN ('integer', 'real') THEN 'number' ELSE type END, atom FROM json_tree(("data" -> '$."o"')) EXCEPT SELECT fullkey, CASE WHEN type IN ('integer', 'real') THEN 'number' ELSE type END, atom FROM json_tree(?)) AND NOT EXISTS (SELECT fullkey, CASE WHEN type IN ('integer', 'real') THEN 'number' ELSE type END, atom FROM json_tree(?) EXCEPT SELECT fullkey, CASE WHEN type IN ('integer', 'real') THEN 'number' ELSE type END, atom FROM json_tree(("data" -> '$."o"')))))"#, [.text(#"{"k":1}"#), .text(#"{"k":1}"#)]),
            postgres: DialectSQL(#"(jsonb_typeof(("data" #> '{"o"}')) = 'object' AND ("data" #> '{"o"}') = $1::jsonb)"#, [.text(#"{"k":1}"#)])),
        ConditionCase(#"{"o.k":1}"#, typed: true,
            sqlite: DialectSQL(#"((json_type("data", '$."o"."k"') IN ('integer', 'real') AND json_extract("data", '$."o"."k"') = ?) OR (json_type("data", '$."o"."k"') = 'array' AND EXISTS (SELECT 1 FROM json_each(("data" -> '$."o"."k"')) AS e1 WHERE (e1.type IN ('integer', 'real') AND e1.value = ?))))"#, [.int(1), .int(1)]),
            postgres: DialectSQL(#"((jsonb_typeof(("data" #> '{"o","k"}')) = 'number' AND ("data" #> '{"o","k"}') = $1::jsonb) OR EXISTS (SELECT 1 FROM jsonb_array_elements(CASE WHEN jsonb_typeof(("data" #> '{"o","k"}')) = 'array' THEN ("data" #> '{"o","k"}') ELSE '[]'::jsonb END) AS e1(value) WHERE (jsonb_typeof(e1.value) = 'number' AND e1.value = $2::jsonb)))"#, [.text(#"1"#), .text(#"1"#)])),
        ConditionCase(#"{"list.0.name":"x"}"#, typed: false,
            sqlite: DialectSQL(#"((COALESCE(json_type("data", '$."list"[0]."name"'), json_type("data", '$."list"."0"."name"')) = 'text' AND COALESCE(json_extract("data", '$."list"[0]."name"'), json_extract("data", '$."list"."0"."name"')) = ?) OR (COALESCE(json_type("data", '$."list"[0]."name"'), json_type("data", '$."list"."0"."name"')) = 'array' AND EXISTS (SELECT 1 FROM json_each(COALESCE(("data" -> '$."list"[0]."name"'), ("data" -> '$."list"."0"."name"'))) AS e1 WHERE (e1.type = 'text' AND e1.value = ?))))"#, [.text(#"x"#), .text(#"x"#)]),
            postgres: DialectSQL(#"((jsonb_typeof(("data" #> '{"list","0","name"}')) = 'string' AND ("data" #> '{"list","0","name"}') = $1::jsonb) OR EXISTS (SELECT 1 FROM jsonb_array_elements(CASE WHEN jsonb_typeof(("data" #> '{"list","0","name"}')) = 'array' THEN ("data" #> '{"list","0","name"}') ELSE '[]'::jsonb END) AS e1(value) WHERE (jsonb_typeof(e1.value) = 'string' AND e1.value = $2::jsonb)))"#, [.text(#""x""#), .text(#""x""#)])),
    ]

    @Test("equality compiles to the pinned SQL and bindings in both dialects", arguments: cases)
    func equality(_ pinned: ConditionCase) throws {
        try pinned.check()
    }
}
