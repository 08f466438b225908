import CirrusModel
import CirrusSQL
import Testing

@Suite("ConditionCompiler: query operators")
struct ConditionCompilerOperatorTests {
    /// `$ne`, ordering, `$in`/`$nin`, `$all`, `$exists`, `$size` and `$regex`, pinned for SQLite and PostgreSQL.
    static let cases: [ConditionCase] = [
        ConditionCase(#"{"n":{"$ne":1}}"#, typed: true,
            sqlite: DialectSQL(#"(json_extract("data", '$."n"') = ?) IS NOT TRUE"#, [.int(1)]),
            postgres: DialectSQL(#"(("data" #> '{"n"}') = $1::jsonb) IS NOT TRUE"#, [.text(#"1"#)])),
        ConditionCase(#"{"n":{"$lt":10,"$gte":2}}"#, typed: true,
            sqlite: DialectSQL(#"(json_extract("data", '$."n"') >= ? AND json_extract("data", '$."n"') < ?)"#, [.int(2), .int(10)]),
            postgres: DialectSQL(#"(("data" #> '{"n"}') >= $1::jsonb AND (("data" #> '{"n"}') < $2::jsonb AND ("data" #> '{"n"}') > 'null'::jsonb))"#, [.text(#"2"#), .text(#"10"#)])),
        ConditionCase(#"{"n":{"$lte":10}}"#, typed: false,
            sqlite: DialectSQL(#"((json_type("data", '$."n"') IN ('integer', 'real') AND json_extract("data", '$."n"') <= ?) OR (json_type("data", '$."n"') = 'array' AND EXISTS (SELECT 1 FROM json_each(("data" -> '$."n"')) AS e1 WHERE (e1.type IN ('integer', 'real') AND e1.value <= ?))))"#, [.int(10), .int(10)]),
            postgres: DialectSQL(#"((jsonb_typeof(("data" #> '{"n"}')) = 'number' AND ("data" #> '{"n"}') <= $1::jsonb) OR EXISTS (SELECT 1 FROM jsonb_array_elements(CASE WHEN jsonb_typeof(("data" #> '{"n"}')) = 'array' THEN ("data" #> '{"n"}') ELSE '[]'::jsonb END) AS e1(value) WHERE (jsonb_typeof(e1.value) = 'number' AND e1.value <= $2::jsonb)))"#, [.text(#"10"#), .text(#"10"#)])),
        ConditionCase(#"{"name":{"$gt":"m"}}"#, typed: true,
            sqlite: DialectSQL(#"json_extract("data", '$."name"') > ?"#, [.text(#"m"#)]),
            postgres: DialectSQL(#"("data" #>> '{"name"}') COLLATE "C" > $1"#, [.text(#"m"#)])),
        ConditionCase(#"{"d":{"$lt":{"__type":"Date","iso":"2015-06-21T18:02:52.249Z"}}}"#, typed: true,
            sqlite: DialectSQL(#"json_extract("data", '$."d"."iso"') < ?"#, [.text(#"2015-06-21T18:02:52.249Z"#)]),
            postgres: DialectSQL(#"(("data" #> '{"d"}') ->> 'iso') COLLATE "C" < $1"#, [.text(#"2015-06-21T18:02:52.249Z"#)])),
        ConditionCase(#"{"n":{"$in":[1,"a",null,true]}}"#, typed: false,
            sqlite: DialectSQL(#"((NOT json_type("data", '$."n"') IS NOT NULL OR json_type("data", '$."n"') = 'null') OR (((json_type("data", '$."n"') = 'text' AND json_extract("data", '$."n"') IN (?)) OR (json_type("data", '$."n"') IN ('integer', 'real') AND json_extract("data", '$."n"') IN (?)) OR json_type("data", '$."n"') = 'true') OR (json_type("data", '$."n"') = 'array' AND EXISTS (SELECT 1 FROM json_each(("data" -> '$."n"')) AS e1 WHERE ((e1.type = 'text' AND e1.value IN (?)) OR (e1.type IN ('integer', 'real') AND e1.value IN (?)) OR e1.type = 'true')))))"#, [.text(#"a"#), .int(1), .text(#"a"#), .int(1)]),
            postgres: DialectSQL(#"((NOT ("data" #> '{"n"}') IS NOT NULL OR jsonb_typeof(("data" #> '{"n"}')) = 'null') OR (((jsonb_typeof(("data" #> '{"n"}')) = 'string' AND ("data" #> '{"n"}') IN ($1::jsonb)) OR (jsonb_typeof(("data" #> '{"n"}')) = 'number' AND ("data" #> '{"n"}') IN ($2::jsonb)) OR ("data" #> '{"n"}') = 'true'::jsonb) OR EXISTS (SELECT 1 FROM jsonb_array_elements(CASE WHEN jsonb_typeof(("data" #> '{"n"}')) = 'array' THEN ("data" #> '{"n"}') ELSE '[]'::jsonb END) AS e1(value) WHERE ((jsonb_typeof(e1.value) = 'string' AND e1.value IN ($3::jsonb)) OR (jsonb_typeof(e1.value) = 'number' AND e1.value IN ($4::jsonb)) OR e1.value = 'true'::jsonb))))"#, [.text(#""a""#), .text(#"1"#), .text(#""a""#), .text(#"1"#)])),
        ConditionCase(#"{"n":{"$in":[]}}"#, typed: false,
            sqlite: DialectSQL(#"FALSE"#, []),
            postgres: DialectSQL(#"FALSE"#, [])),
        ConditionCase(#"{"n":{"$nin":[1,2]}}"#, typed: true,
            sqlite: DialectSQL(#"((json_type("data", '$."n"') IN ('integer', 'real') AND json_extract("data", '$."n"') IN (?, ?))) IS NOT TRUE"#, [.int(1), .int(2)]),
            postgres: DialectSQL(#"((jsonb_typeof(("data" #> '{"n"}')) = 'number' AND ("data" #> '{"n"}') IN ($1::jsonb, $2::jsonb))) IS NOT TRUE"#, [.text(#"1"#), .text(#"2"#)])),
        ConditionCase(#"{"tags":{"$all":["a","b"]}}"#, typed: true,
            sqlite: DialectSQL(#"((json_type("data", '$."tags"') = 'array' AND EXISTS (SELECT 1 FROM json_each(("data" -> '$."tags"')) AS e1 WHERE (e1.type = 'text' AND e1.value = ?))) AND (json_type("data", '$."tags"') = 'array' AND EXISTS (SELECT 1 FROM json_each(("data" -> '$."tags"')) AS e2 WHERE (e2.type = 'text' AND e2.value = ?))))"#, [.text(#"a"#), .text(#"b"#)]),
            postgres: DialectSQL(#"(((("data" #> '{"tags"}') @> $1::jsonb) AND EXISTS (SELECT 1 FROM jsonb_array_elements(CASE WHEN jsonb_typeof(("data" #> '{"tags"}')) = 'array' THEN ("data" #> '{"tags"}') ELSE '[]'::jsonb END) AS e1(value) WHERE (jsonb_typeof(e1.value) = 'string' AND e1.value = $2::jsonb))) AND ((("data" #> '{"tags"}') @> $3::jsonb) AND EXISTS (SELECT 1 FROM jsonb_array_elements(CASE WHEN jsonb_typeof(("data" #> '{"tags"}')) = 'array' THEN ("data" #> '{"tags"}') ELSE '[]'::jsonb END) AS e2(value) WHERE (jsonb_typeof(e2.value) = 'string' AND e2.value = $4::jsonb))))"#, [.text(#"["a"]"#), .text(#""a""#), .text(#"["b"]"#), .text(#""b""#)])),
        ConditionCase(#"{"n":{"$exists":true}}"#, typed: false,
            sqlite: DialectSQL(#"json_type("data", '$."n"') IS NOT NULL"#, []),
            postgres: DialectSQL(#"("data" #> '{"n"}') IS NOT NULL"#, [])),
        ConditionCase(#"{"n":{"$exists":false}}"#, typed: false,
            sqlite: DialectSQL(#"NOT json_type("data", '$."n"') IS NOT NULL"#, []),
            postgres: DialectSQL(#"NOT ("data" #> '{"n"}') IS NOT NULL"#, [])),
        ConditionCase(#"{"tags":{"$size":2}}"#, typed: true,
            sqlite: DialectSQL(#"(json_type("data", '$."tags"') = 'array' AND json_array_length(("data" -> '$."tags"')) = ?)"#, [.int(2)]),
            postgres: DialectSQL(#"(CASE WHEN jsonb_typeof(("data" #> '{"tags"}')) = 'array' THEN jsonb_array_length(("data" #> '{"tags"}')) END = $1)"#, [.int(2)])),
        ConditionCase(#"{"name":{"$regex":"^a","$options":"i"}}"#, typed: true,
            sqlite: DialectSQL(#"(json_type("data", '$."name"') = 'text' AND cirrus_regexp(?, ?, json_extract("data", '$."name"')))"#, [.text(#"^a"#), .text(#"i"#)]),
            postgres: DialectSQL(#"(jsonb_typeof(("data" #> '{"name"}')) = 'string' AND ("data" #>> '{"name"}') ~ $1)"#, [.text(#"(?pi)^a"#)])),
        ConditionCase(#"{"tags":{"$regex":"\\Qa.b\\E","$options":"ms"}}"#, typed: true,
            sqlite: DialectSQL(#"(json_type("data", '$."tags"') = 'array' AND EXISTS (SELECT 1 FROM json_each(("data" -> '$."tags"')) AS e1 WHERE (e1.type = 'text' AND cirrus_regexp(?, ?, e1.value))))"#, [.text(#"\Qa.b\E"#), .text(#"ms"#)]),
            postgres: DialectSQL(#"EXISTS (SELECT 1 FROM jsonb_array_elements(CASE WHEN jsonb_typeof(("data" #> '{"tags"}')) = 'array' THEN ("data" #> '{"tags"}') ELSE '[]'::jsonb END) AS e1(value) WHERE (jsonb_typeof(e1.value) = 'string' AND (e1.value #>> '{}') ~ $1))"#, [.text(#"(?w)a\.b"#)])),
    ]

    @Test("each operator compiles to the pinned SQL and bindings in both dialects", arguments: cases)
    func operators(_ pinned: ConditionCase) throws {
        try pinned.check()
    }
}
