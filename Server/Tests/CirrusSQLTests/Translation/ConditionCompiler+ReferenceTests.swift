import CirrusModel
import CirrusSQL
import Testing

/// A `where` compiled with the classes of ``ConditionCompilerReferenceTests/tables`` and the caller's readers.
struct ReferenceCase: Sendable, CustomTestStringConvertible {
    let name: String
    let whereJSON: String
    let typed: Bool
    let readers: [String]?
    let sqlite: DialectSQL
    let postgres: DialectSQL

    init(_ name: String, _ whereJSON: String, typed: Bool, readers: [String]?, sqlite: DialectSQL, postgres: DialectSQL) {
        self.name = name
        self.whereJSON = whereJSON
        self.typed = typed
        self.readers = readers
        self.sqlite = sqlite
        self.postgres = postgres
    }

    var testDescription: String { name }

    /// Compiles the case (restricted to its readers) in both dialects and checks the pinned SQL.
    func check(sourceLocation: SourceLocation = #_sourceLocation) throws {
        let condition = try Condition(where: JSONParser.parse(whereJSON))
        let schema = typed ? ConditionCompilerReferenceTests.schema : nil
        for (dialect, expected) in [(SQLiteDialect() as any SQLDialect, sqlite), (PostgresDialect(), postgres)] {
            let compiler = ConditionCompiler(dialect: dialect, schema: schema, tables: ConditionCompilerReferenceTests.tables, readers: readers)
            expectSQL(compiler.compileReadable(condition), dialect, expected, sourceLocation: sourceLocation)
        }
    }
}

@Suite("ConditionCompiler: sub-queries, relations and the read predicate")
struct ConditionCompilerReferenceTests {
    /// The classes the sub-queries of the cases read.
    static let tables = ClassTables([
        "Post": ClassTables.Entry(table: "o_post", schema: ClassSchema(className: "Post", fields: ["score": .number, "title": .string])),
        "Team": ClassTables.Entry(table: "o_team", schema: ClassSchema(className: "Team", fields: ["won": .boolean, "hometown": .string])),
    ])

    /// The outer class of the typed cases.
    static let schema = ClassSchema(className: "Comment", fields: [
        "post": .pointer(targetClass: "Post"), "posts": .array, "city": .string, "cities": .array, "tags": .relation(targetClass: "Tag"),
    ])

    /// `$inQuery`, `$notInQuery`, `$select`, `$dontSelect`, `$relatedTo`, bare objectIds on Pointer fields, pointer
    /// equality and the read predicate, pinned for SQLite and PostgreSQL.
    static let cases: [ReferenceCase] = [
        ReferenceCase("inQuery on a field of unknown type", #"{"post":{"$inQuery":{"className":"Post","where":{"score":{"$gt":5}}}}}"#, typed: false, readers: nil,
            sqlite: DialectSQL(#"EXISTS (SELECT 1 FROM json_each(CASE WHEN json_type("data", '$."post"') = 'array' THEN json_insert(("data" -> '$."post"'), '$[#]', ("data" -> '$."post"')) WHEN json_type("data", '$."post"') IS NOT NULL THEN json_array(("data" -> '$."post"')) END) AS e1 WHERE (e1.type = 'object' AND json_extract(CASE WHEN e1.type IN ('object', 'array') THEN json(e1.value) END, '$."className"') = ? AND json_extract(CASE WHEN e1.type IN ('object', 'array') THEN json(e1.value) END, '$."objectId"') IN (SELECT "id" FROM "o_post" WHERE json_extract("data", '$."score"') > ? LIMIT ?)))"#, [.text(#"Post"#), .int(5), .int(100)]),
            postgres: DialectSQL(#"EXISTS (SELECT 1 FROM jsonb_array_elements(CASE WHEN jsonb_typeof(("data" #> '{"post"}')) = 'array' THEN ("data" #> '{"post"}') || jsonb_build_array(("data" #> '{"post"}')) WHEN ("data" #> '{"post"}') IS NOT NULL THEN jsonb_build_array(("data" #> '{"post"}')) END) AS e1(value) WHERE (jsonb_typeof(e1.value) = 'object' AND (e1.value -> 'className') = $1::jsonb AND (e1.value ->> 'objectId') IN (SELECT "id" FROM "o_post" WHERE ("data" #> '{"score"}') > $2::jsonb LIMIT $3)))"#, [.text(#""Post""#), .text(#"5"#), .int(100)])),
        ReferenceCase("inQuery on a Pointer field, with the inner limit", #"{"post":{"$inQuery":{"className":"Post","where":{"title":"a"},"limit":2}}}"#, typed: true, readers: nil,
            sqlite: DialectSQL(#"(json_type("data", '$."post"') = 'object' AND json_extract("data", '$."post"."className"') = ? AND json_extract("data", '$."post"."objectId"') IN (SELECT "id" FROM "o_post" WHERE json_extract("data", '$."title"') = ? LIMIT ?))"#, [.text(#"Post"#), .text(#"a"#), .int(2)]),
            postgres: DialectSQL(#"(jsonb_typeof(("data" #> '{"post"}')) = 'object' AND (("data" #> '{"post"}') -> 'className') = $1::jsonb AND (("data" #> '{"post"}') ->> 'objectId') IN (SELECT "id" FROM "o_post" WHERE ("data" #> '{"title"}') = $2::jsonb LIMIT $3))"#, [.text(#""Post""#), .text(#""a""#), .int(2)])),
        ReferenceCase("inQuery on an Array field of pointers", #"{"posts":{"$inQuery":{"className":"Post","where":{}}}}"#, typed: true, readers: nil,
            sqlite: DialectSQL(#"(json_type("data", '$."posts"') = 'array' AND EXISTS (SELECT 1 FROM json_each(("data" -> '$."posts"')) AS e1 WHERE (e1.type = 'object' AND json_extract(CASE WHEN e1.type IN ('object', 'array') THEN json(e1.value) END, '$."className"') = ? AND json_extract(CASE WHEN e1.type IN ('object', 'array') THEN json(e1.value) END, '$."objectId"') IN (SELECT "id" FROM "o_post" WHERE TRUE LIMIT ?))))"#, [.text(#"Post"#), .int(100)]),
            postgres: DialectSQL(#"EXISTS (SELECT 1 FROM jsonb_array_elements(CASE WHEN jsonb_typeof(("data" #> '{"posts"}')) = 'array' THEN ("data" #> '{"posts"}') ELSE '[]'::jsonb END) AS e1(value) WHERE (jsonb_typeof(e1.value) = 'object' AND (e1.value -> 'className') = $1::jsonb AND (e1.value ->> 'objectId') IN (SELECT "id" FROM "o_post" WHERE TRUE LIMIT $2)))"#, [.text(#""Post""#), .int(100)])),
        ReferenceCase("notInQuery", #"{"post":{"$notInQuery":{"className":"Post","where":{"score":1}}}}"#, typed: true, readers: nil,
            sqlite: DialectSQL(#"((json_type("data", '$."post"') = 'object' AND json_extract("data", '$."post"."className"') = ? AND json_extract("data", '$."post"."objectId"') IN (SELECT "id" FROM "o_post" WHERE json_extract("data", '$."score"') = ? LIMIT ?))) IS NOT TRUE"#, [.text(#"Post"#), .int(1), .int(100)]),
            postgres: DialectSQL(#"((jsonb_typeof(("data" #> '{"post"}')) = 'object' AND (("data" #> '{"post"}') -> 'className') = $1::jsonb AND (("data" #> '{"post"}') ->> 'objectId') IN (SELECT "id" FROM "o_post" WHERE ("data" #> '{"score"}') = $2::jsonb LIMIT $3))) IS NOT TRUE"#, [.text(#""Post""#), .text(#"1"#), .int(100)])),
        ReferenceCase("inQuery on a class that does not exist", #"{"post":{"$inQuery":{"className":"Nope","where":{}}}}"#, typed: true, readers: nil,
            sqlite: DialectSQL(#"FALSE"#, []),
            postgres: DialectSQL(#"FALSE"#, [])),
        ReferenceCase("notInQuery on a class that does not exist", #"{"post":{"$notInQuery":{"className":"Nope","where":{}}}}"#, typed: true, readers: nil,
            sqlite: DialectSQL(#"(FALSE) IS NOT TRUE"#, []),
            postgres: DialectSQL(#"(FALSE) IS NOT TRUE"#, [])),
        ReferenceCase("nested inQuery", #"{"post":{"$inQuery":{"className":"Post","where":{"team":{"$inQuery":{"className":"Team","where":{"won":true}}}}}}}"#, typed: true, readers: nil,
            sqlite: DialectSQL(#"(json_type("data", '$."post"') = 'object' AND json_extract("data", '$."post"."className"') = ? AND json_extract("data", '$."post"."objectId"') IN (SELECT "id" FROM "o_post" WHERE EXISTS (SELECT 1 FROM json_each(CASE WHEN json_type("data", '$."team"') = 'array' THEN json_insert(("data" -> '$."team"'), '$[#]', ("data" -> '$."team"')) WHEN json_type("data", '$."team"') IS NOT NULL THEN json_array(("data" -> '$."team"')) END) AS e1 WHERE (e1.type = 'object' AND json_extract(CASE WHEN e1.type IN ('object', 'array') THEN json(e1.value) END, '$."className"') = ? AND json_extract(CASE WHEN e1.type IN ('object', 'array') THEN json(e1.value) END, '$."objectId"') IN (SELECT "id" FROM "o_team" WHERE json_type("data", '$."won"') = 'true' LIMIT ?))) LIMIT ?))"#, [.text(#"Post"#), .text(#"Team"#), .int(100), .int(100)]),
            postgres: DialectSQL(#"(jsonb_typeof(("data" #> '{"post"}')) = 'object' AND (("data" #> '{"post"}') -> 'className') = $1::jsonb AND (("data" #> '{"post"}') ->> 'objectId') IN (SELECT "id" FROM "o_post" WHERE EXISTS (SELECT 1 FROM jsonb_array_elements(CASE WHEN jsonb_typeof(("data" #> '{"team"}')) = 'array' THEN ("data" #> '{"team"}') || jsonb_build_array(("data" #> '{"team"}')) WHEN ("data" #> '{"team"}') IS NOT NULL THEN jsonb_build_array(("data" #> '{"team"}')) END) AS e1(value) WHERE (jsonb_typeof(e1.value) = 'object' AND (e1.value -> 'className') = $2::jsonb AND (e1.value ->> 'objectId') IN (SELECT "id" FROM "o_team" WHERE ("data" #> '{"won"}') = 'true'::jsonb LIMIT $3))) LIMIT $4))"#, [.text(#""Post""#), .text(#""Team""#), .int(100), .int(100)])),
        ReferenceCase("select", #"{"city":{"$select":{"query":{"className":"Team","where":{"won":true}},"key":"hometown"}}}"#, typed: true, readers: nil,
            sqlite: DialectSQL(#"CASE WHEN json_type("data", '$."city"') IN ('integer', 'real') THEN json_extract("data", '$."city"') WHEN json_type("data", '$."city"') = 'text' THEN json_quote(json_extract("data", '$."city"')) WHEN json_type("data", '$."city"') IN ('object', 'array') THEN json(json_extract("data", '$."city"')) ELSE json_type("data", '$."city"') END IN (SELECT CASE WHEN json_type("data", '$."hometown"') IN ('integer', 'real') THEN json_extract("data", '$."hometown"') WHEN json_type("data", '$."hometown"') = 'text' THEN json_quote(json_extract("data", '$."hometown"')) WHEN json_type("data", '$."hometown"') IN ('object', 'array') THEN json(json_extract("data", '$."hometown"')) ELSE json_type("data", '$."hometown"') END FROM "o_team" WHERE json_type("data", '$."won"') = 'true' AND json_type("data", '$."hometown"') IS NOT NULL LIMIT ?)"#, [.int(100)]),
            postgres: DialectSQL(#"("data" #> '{"city"}') IN (SELECT ("data" #> '{"hometown"}') FROM "o_team" WHERE ("data" #> '{"won"}') = 'true'::jsonb AND ("data" #> '{"hometown"}') IS NOT NULL LIMIT $1)"#, [.int(100)])),
        ReferenceCase("select on an Array field", #"{"cities":{"$select":{"query":{"className":"Team","where":{}},"key":"hometown"}}}"#, typed: true, readers: nil,
            sqlite: DialectSQL(#"(json_type("data", '$."cities"') = 'array' AND EXISTS (SELECT 1 FROM json_each(("data" -> '$."cities"')) AS e1 WHERE CASE WHEN e1.type IN ('integer', 'real') THEN e1.value WHEN e1.type = 'text' THEN json_quote(e1.value) WHEN e1.type IN ('object', 'array') THEN json(e1.value) ELSE e1.type END IN (SELECT CASE WHEN json_type("data", '$."hometown"') IN ('integer', 'real') THEN json_extract("data", '$."hometown"') WHEN json_type("data", '$."hometown"') = 'text' THEN json_quote(json_extract("data", '$."hometown"')) WHEN json_type("data", '$."hometown"') IN ('object', 'array') THEN json(json_extract("data", '$."hometown"')) ELSE json_type("data", '$."hometown"') END FROM "o_team" WHERE TRUE AND json_type("data", '$."hometown"') IS NOT NULL LIMIT ?)))"#, [.int(100)]),
            postgres: DialectSQL(#"EXISTS (SELECT 1 FROM jsonb_array_elements(CASE WHEN jsonb_typeof(("data" #> '{"cities"}')) = 'array' THEN ("data" #> '{"cities"}') ELSE '[]'::jsonb END) AS e1(value) WHERE e1.value IN (SELECT ("data" #> '{"hometown"}') FROM "o_team" WHERE TRUE AND ("data" #> '{"hometown"}') IS NOT NULL LIMIT $1))"#, [.int(100)])),
        ReferenceCase("select on a field of unknown type", #"{"city":{"$select":{"query":{"className":"Team","where":{}},"key":"hometown"}}}"#, typed: false, readers: nil,
            sqlite: DialectSQL(#"EXISTS (SELECT 1 FROM json_each(CASE WHEN json_type("data", '$."city"') = 'array' THEN json_insert(("data" -> '$."city"'), '$[#]', ("data" -> '$."city"')) WHEN json_type("data", '$."city"') IS NOT NULL THEN json_array(("data" -> '$."city"')) END) AS e1 WHERE CASE WHEN e1.type IN ('integer', 'real') THEN e1.value WHEN e1.type = 'text' THEN json_quote(e1.value) WHEN e1.type IN ('object', 'array') THEN json(e1.value) ELSE e1.type END IN (SELECT CASE WHEN json_type("data", '$."hometown"') IN ('integer', 'real') THEN json_extract("data", '$."hometown"') WHEN json_type("data", '$."hometown"') = 'text' THEN json_quote(json_extract("data", '$."hometown"')) WHEN json_type("data", '$."hometown"') IN ('object', 'array') THEN json(json_extract("data", '$."hometown"')) ELSE json_type("data", '$."hometown"') END FROM "o_team" WHERE TRUE AND json_type("data", '$."hometown"') IS NOT NULL LIMIT ?))"#, [.int(100)]),
            postgres: DialectSQL(#"EXISTS (SELECT 1 FROM jsonb_array_elements(CASE WHEN jsonb_typeof(("data" #> '{"city"}')) = 'array' THEN ("data" #> '{"city"}') || jsonb_build_array(("data" #> '{"city"}')) WHEN ("data" #> '{"city"}') IS NOT NULL THEN jsonb_build_array(("data" #> '{"city"}')) END) AS e1(value) WHERE e1.value IN (SELECT ("data" #> '{"hometown"}') FROM "o_team" WHERE TRUE AND ("data" #> '{"hometown"}') IS NOT NULL LIMIT $1))"#, [.int(100)])),
        ReferenceCase("dontSelect with the inner objectId", #"{"city":{"$dontSelect":{"query":{"className":"Team","where":{},"limit":1000},"key":"objectId"}}}"#, typed: true, readers: nil,
            sqlite: DialectSQL(#"(CASE WHEN json_type("data", '$."city"') IN ('integer', 'real') THEN json_extract("data", '$."city"') WHEN json_type("data", '$."city"') = 'text' THEN json_quote(json_extract("data", '$."city"')) WHEN json_type("data", '$."city"') IN ('object', 'array') THEN json(json_extract("data", '$."city"')) ELSE json_type("data", '$."city"') END IN (SELECT json_quote("id") FROM "o_team" WHERE TRUE LIMIT ?)) IS NOT TRUE"#, [.int(1000)]),
            postgres: DialectSQL(#"(("data" #> '{"city"}') IN (SELECT to_jsonb("id") FROM "o_team" WHERE TRUE LIMIT $1)) IS NOT TRUE"#, [.int(1000)])),
        ReferenceCase("select on the outer objectId", #"{"objectId":{"$select":{"query":{"className":"Team","where":{}},"key":"hometown"}}}"#, typed: true, readers: nil,
            sqlite: DialectSQL(#"json_quote("id") IN (SELECT CASE WHEN json_type("data", '$."hometown"') IN ('integer', 'real') THEN json_extract("data", '$."hometown"') WHEN json_type("data", '$."hometown"') = 'text' THEN json_quote(json_extract("data", '$."hometown"')) WHEN json_type("data", '$."hometown"') IN ('object', 'array') THEN json(json_extract("data", '$."hometown"')) ELSE json_type("data", '$."hometown"') END FROM "o_team" WHERE TRUE AND json_type("data", '$."hometown"') IS NOT NULL LIMIT ?)"#, [.int(100)]),
            postgres: DialectSQL(#"to_jsonb("id") IN (SELECT ("data" #> '{"hometown"}') FROM "o_team" WHERE TRUE AND ("data" #> '{"hometown"}') IS NOT NULL LIMIT $1)"#, [.int(100)])),
        ReferenceCase("select between the built-in dates compares them as Dates", #"{"createdAt":{"$select":{"query":{"className":"Team","where":{}},"key":"updatedAt"}}}"#, typed: true, readers: nil,
            sqlite: DialectSQL(#"json_object('__type', 'Date', 'iso', strftime('%Y-%m-%dT%H:%M:%S', "created_at" / 1000, 'unixepoch') || printf('.%03dZ', "created_at" % 1000)) IN (SELECT json_object('__type', 'Date', 'iso', strftime('%Y-%m-%dT%H:%M:%S', "updated_at" / 1000, 'unixepoch') || printf('.%03dZ', "updated_at" % 1000)) FROM "o_team" WHERE TRUE LIMIT ?)"#, [.int(100)]),
            postgres: DialectSQL(#"jsonb_build_object('__type', 'Date', 'iso', to_char(to_timestamp("created_at" / 1000) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS') || '.' || lpad(("created_at" % 1000)::text, 3, '0') || 'Z') IN (SELECT jsonb_build_object('__type', 'Date', 'iso', to_char(to_timestamp("updated_at" / 1000) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS') || '.' || lpad(("updated_at" % 1000)::text, 3, '0') || 'Z') FROM "o_team" WHERE TRUE LIMIT $1)"#, [.int(100)])),
        ReferenceCase("select on a class that does not exist", #"{"city":{"$select":{"query":{"className":"Nope","where":{}},"key":"x"}}}"#, typed: true, readers: nil,
            sqlite: DialectSQL(#"FALSE"#, []),
            postgres: DialectSQL(#"FALSE"#, [])),
        ReferenceCase("relatedTo", #"{"$relatedTo":{"object":{"__type":"Pointer","className":"Album","objectId":"a1"},"key":"photos"}}"#, typed: true, readers: nil,
            sqlite: DialectSQL(#""id" IN (SELECT "target_id" FROM "_cirrus_relations" WHERE "owner_class" = ? AND "field" = ? AND "owner_id" = ? AND "target_class" = ?)"#, [.text(#"Album"#), .text(#"photos"#), .text(#"a1"#), .text(#"Comment"#)]),
            postgres: DialectSQL(#""id" IN (SELECT "target_id" FROM "_cirrus_relations" WHERE "owner_class" = $1 AND "field" = $2 AND "owner_id" = $3 AND "target_class" = $4)"#, [.text(#"Album"#), .text(#"photos"#), .text(#"a1"#), .text(#"Comment"#)])),
        ReferenceCase("relatedTo without the class schema", #"{"$relatedTo":{"object":{"__type":"Pointer","className":"Album","objectId":"a1"},"key":"photos"}}"#, typed: false, readers: nil,
            sqlite: DialectSQL(#""id" IN (SELECT "target_id" FROM "_cirrus_relations" WHERE "owner_class" = ? AND "field" = ? AND "owner_id" = ?)"#, [.text(#"Album"#), .text(#"photos"#), .text(#"a1"#)]),
            postgres: DialectSQL(#""id" IN (SELECT "target_id" FROM "_cirrus_relations" WHERE "owner_class" = $1 AND "field" = $2 AND "owner_id" = $3)"#, [.text(#"Album"#), .text(#"photos"#), .text(#"a1"#)])),
        ReferenceCase("pointer equality on a Relation field means the relation holds it", #"{"tags":{"__type":"Pointer","className":"Tag","objectId":"t1"}}"#, typed: true, readers: nil,
            sqlite: DialectSQL(#""id" IN (SELECT "owner_id" FROM "_cirrus_relations" WHERE "owner_class" = ? AND "field" = ? AND "target_id" = ?)"#, [.text(#"Comment"#), .text(#"tags"#), .text(#"t1"#)]),
            postgres: DialectSQL(#""id" IN (SELECT "owner_id" FROM "_cirrus_relations" WHERE "owner_class" = $1 AND "field" = $2 AND "target_id" = $3)"#, [.text(#"Comment"#), .text(#"tags"#), .text(#"t1"#)])),
        ReferenceCase("$in on a Relation field keeps the pointers to its target class", #"{"tags":{"$in":[{"__type":"Pointer","className":"Tag","objectId":"t1"},{"__type":"Pointer","className":"Post","objectId":"p1"},{"__type":"Pointer","className":"Tag","objectId":"t2"}]}}"#, typed: true, readers: nil,
            sqlite: DialectSQL(#""id" IN (SELECT "owner_id" FROM "_cirrus_relations" WHERE "owner_class" = ? AND "field" = ? AND "target_id" IN (?, ?))"#, [.text(#"Comment"#), .text(#"tags"#), .text(#"t1"#), .text(#"t2"#)]),
            postgres: DialectSQL(#""id" IN (SELECT "owner_id" FROM "_cirrus_relations" WHERE "owner_class" = $1 AND "field" = $2 AND "target_id" IN ($3, $4))"#, [.text(#"Comment"#), .text(#"tags"#), .text(#"t1"#), .text(#"t2"#)])),
        ReferenceCase("a pointer to another class never matches a Relation field", #"{"tags":{"__type":"Pointer","className":"Post","objectId":"p1"}}"#, typed: true, readers: nil,
            sqlite: DialectSQL(#"FALSE"#, []),
            postgres: DialectSQL(#"FALSE"#, [])),
        ReferenceCase("bare objectIds in $in on a Pointer field", #"{"post":{"$in":["p1","p2"]}}"#, typed: true, readers: nil,
            sqlite: DialectSQL(#"(json_type("data", '$."post"') = 'object' AND json_extract("data", '$."post"."objectId"') IN (?, ?) AND json_extract("data", '$."post"."className"') = ?)"#, [.text(#"p1"#), .text(#"p2"#), .text(#"Post"#)]),
            postgres: DialectSQL(#"(jsonb_typeof(("data" #> '{"post"}')) = 'object' AND (("data" #> '{"post"}') -> 'objectId') IN ($1::jsonb, $2::jsonb) AND (("data" #> '{"post"}') -> 'className') = $3::jsonb)"#, [.text(#""p1""#), .text(#""p2""#), .text(#""Post""#)])),
        ReferenceCase("bare objectIds in $nin on a Pointer field", #"{"post":{"$nin":["p1"]}}"#, typed: true, readers: nil,
            sqlite: DialectSQL(#"((json_type("data", '$."post"') = 'object' AND json_extract("data", '$."post"."className"') = ? AND json_extract("data", '$."post"."objectId"') = ?)) IS NOT TRUE"#, [.text(#"Post"#), .text(#"p1"#)]),
            postgres: DialectSQL(#"((jsonb_typeof(("data" #> '{"post"}')) = 'object' AND (("data" #> '{"post"}') -> 'className') = $1::jsonb AND (("data" #> '{"post"}') -> 'objectId') = $2::jsonb)) IS NOT TRUE"#, [.text(#""Post""#), .text(#""p1""#)])),
        ReferenceCase("pointer equality without the schema", #"{"post":{"__type":"Pointer","className":"Post","objectId":"p1"}}"#, typed: false, readers: nil,
            sqlite: DialectSQL(#"((json_type("data", '$."post"') = 'object' AND json_extract("data", '$."post"."className"') = ? AND json_extract("data", '$."post"."objectId"') = ?) OR (json_type("data", '$."post"') = 'array' AND EXISTS (SELECT 1 FROM json_each(("data" -> '$."post"')) AS e1 WHERE (e1.type = 'object' AND json_extract(CASE WHEN e1.type IN ('object', 'array') THEN json(e1.value) END, '$."className"') = ? AND json_extract(CASE WHEN e1.type IN ('object', 'array') THEN json(e1.value) END, '$."objectId"') = ?))))"#, [.text(#"Post"#), .text(#"p1"#), .text(#"Post"#), .text(#"p1"#)]),
            postgres: DialectSQL(#"((jsonb_typeof(("data" #> '{"post"}')) = 'object' AND (("data" #> '{"post"}') -> 'className') = $1::jsonb AND (("data" #> '{"post"}') -> 'objectId') = $2::jsonb) OR EXISTS (SELECT 1 FROM jsonb_array_elements(CASE WHEN jsonb_typeof(("data" #> '{"post"}')) = 'array' THEN ("data" #> '{"post"}') ELSE '[]'::jsonb END) AS e1(value) WHERE (jsonb_typeof(e1.value) = 'object' AND (e1.value -> 'className') = $3::jsonb AND (e1.value -> 'objectId') = $4::jsonb)))"#, [.text(#""Post""#), .text(#""p1""#), .text(#""Post""#), .text(#""p1""#)])),
        ReferenceCase("pointer equality with the schema", #"{"post":{"__type":"Pointer","className":"Post","objectId":"p1"}}"#, typed: true, readers: nil,
            sqlite: DialectSQL(#"(json_type("data", '$."post"') = 'object' AND json_extract("data", '$."post"."className"') = ? AND json_extract("data", '$."post"."objectId"') = ?)"#, [.text(#"Post"#), .text(#"p1"#)]),
            postgres: DialectSQL(#"(jsonb_typeof(("data" #> '{"post"}')) = 'object' AND (("data" #> '{"post"}') -> 'className') = $1::jsonb AND (("data" #> '{"post"}') -> 'objectId') = $2::jsonb)"#, [.text(#""Post""#), .text(#""p1""#)])),
        ReferenceCase("public readers and no condition", #"{}"#, typed: true, readers: ["*"],
            sqlite: DialectSQL(#"("acl" IS NULL OR json_type("acl", '$."*"."read"') = 'true')"#, []),
            postgres: DialectSQL(#"("acl" IS NULL OR (("acl" #> '{"*"}') -> 'read') = 'true'::jsonb)"#, [])),
        ReferenceCase("public readers", #"{"city":"x"}"#, typed: true, readers: ["*"],
            sqlite: DialectSQL(#"(json_extract("data", '$."city"') = ? AND ("acl" IS NULL OR json_type("acl", '$."*"."read"') = 'true'))"#, [.text(#"x"#)]),
            postgres: DialectSQL(#"(("data" #> '{"city"}') = $1::jsonb AND ("acl" IS NULL OR (("acl" #> '{"*"}') -> 'read') = 'true'::jsonb))"#, [.text(#""x""#)])),
        ReferenceCase("several readers", #"{"city":"x"}"#, typed: true, readers: ["*", "u1", "role:admin"],
            sqlite: DialectSQL(#"(json_extract("data", '$."city"') = ? AND ("acl" IS NULL OR json_type("acl", '$."*"."read"') = 'true' OR json_type("acl", '$."u1"."read"') = 'true' OR json_type("acl", '$."role:admin"."read"') = 'true'))"#, [.text(#"x"#)]),
            postgres: DialectSQL(#"(("data" #> '{"city"}') = $1::jsonb AND ("acl" IS NULL OR (("acl" #> '{"*"}') -> 'read') = 'true'::jsonb OR (("acl" #> '{"u1"}') -> 'read') = 'true'::jsonb OR (("acl" #> '{"role:admin"}') -> 'read') = 'true'::jsonb))"#, [.text(#""x""#)])),
        ReferenceCase("no readers but the absent ACL", #"{}"#, typed: true, readers: [],
            sqlite: DialectSQL(#"("acl" IS NULL)"#, []),
            postgres: DialectSQL(#"("acl" IS NULL)"#, [])),
        ReferenceCase("readers reach inside a sub-query", #"{"post":{"$inQuery":{"className":"Post","where":{}}}}"#, typed: true, readers: ["*"],
            sqlite: DialectSQL(#"((json_type("data", '$."post"') = 'object' AND json_extract("data", '$."post"."className"') = ? AND json_extract("data", '$."post"."objectId"') IN (SELECT "id" FROM "o_post" WHERE ("acl" IS NULL OR json_type("acl", '$."*"."read"') = 'true') LIMIT ?)) AND ("acl" IS NULL OR json_type("acl", '$."*"."read"') = 'true'))"#, [.text(#"Post"#), .int(100)]),
            postgres: DialectSQL(#"((jsonb_typeof(("data" #> '{"post"}')) = 'object' AND (("data" #> '{"post"}') -> 'className') = $1::jsonb AND (("data" #> '{"post"}') ->> 'objectId') IN (SELECT "id" FROM "o_post" WHERE ("acl" IS NULL OR (("acl" #> '{"*"}') -> 'read') = 'true'::jsonb) LIMIT $2)) AND ("acl" IS NULL OR (("acl" #> '{"*"}') -> 'read') = 'true'::jsonb))"#, [.text(#""Post""#), .int(100)])),
        ReferenceCase("readers reach inside select", #"{"city":{"$select":{"query":{"className":"Team","where":{}},"key":"hometown"}}}"#, typed: true, readers: ["*"],
            sqlite: DialectSQL(#"(CASE WHEN json_type("data", '$."city"') IN ('integer', 'real') THEN json_extract("data", '$."city"') WHEN json_type("data", '$."city"') = 'text' THEN json_quote(json_extract("data", '$."city"')) WHEN json_type("data", '$."city"') IN ('object', 'array') THEN json(json_extract("data", '$."city"')) ELSE json_type("data", '$."city"') END IN (SELECT CASE WHEN json_type("data", '$."hometown"') IN ('integer', 'real') THEN json_extract("data", '$."hometown"') WHEN json_type("data", '$."hometown"') = 'text' THEN json_quote(json_extract("data", '$."hometown"')) WHEN json_type("data", '$."hometown"') IN ('object', 'array') THEN json(json_extract("data", '$."hometown"')) ELSE json_type("data", '$."hometown"') END FROM "o_team" WHERE ("acl" IS NULL OR json_type("acl", '$."*"."read"') = 'true') AND json_type("data", '$."hometown"') IS NOT NULL LIMIT ?) AND ("acl" IS NULL OR json_type("acl", '$."*"."read"') = 'true'))"#, [.int(100)]),
            postgres: DialectSQL(#"(("data" #> '{"city"}') IN (SELECT ("data" #> '{"hometown"}') FROM "o_team" WHERE ("acl" IS NULL OR (("acl" #> '{"*"}') -> 'read') = 'true'::jsonb) AND ("data" #> '{"hometown"}') IS NOT NULL LIMIT $1) AND ("acl" IS NULL OR (("acl" #> '{"*"}') -> 'read') = 'true'::jsonb))"#, [.int(100)])),
        ReferenceCase("master reads everything", #"{"city":"x"}"#, typed: true, readers: nil,
            sqlite: DialectSQL(#"json_extract("data", '$."city"') = ?"#, [.text(#"x"#)]),
            postgres: DialectSQL(#"("data" #> '{"city"}') = $1::jsonb"#, [.text(#""x""#)])),
    ]

    @Test("each sub-query, relation and read restriction compiles to the pinned SQL and bindings in both dialects", arguments: cases)
    func references(_ pinned: ReferenceCase) throws {
        try pinned.check()
    }

    @Test("the master key needs no read predicate, and any other caller always gets one")
    func readPredicatePresence() {
        let compiler = ConditionCompiler(dialect: SQLiteDialect(), schema: nil)
        #expect(compiler.readable(by: nil) == nil)
        #expect(compiler.readable(by: ["*"]) != nil)
        #expect(compiler.readable(by: []) != nil)
    }

    @Test("principals that cannot be ACL keys are left out of the read predicate")
    func unsafePrincipals() {
        for dialect in [SQLiteDialect() as any SQLDialect, PostgresDialect()] {
            let compiler = ConditionCompiler(dialect: dialect, schema: nil)
            #expect(compiler.readable(by: ["a\"b", "c\\d"])?.description == #"("acl" IS NULL)"#)
        }
    }

    @Test("the classes a condition's sub-queries read are listed, nested ones included")
    func referencedClasses() throws {
        let condition = try Condition(where: JSONParser.parse(
            #"{"$or":[{"a":{"$inQuery":{"className":"A","where":{"b":{"$select":{"query":{"className":"B","where":{}},"key":"k"}}}}}},{"c":1}]}"#
        ))
        #expect(condition.referencedClassNames == ["A", "B"])
    }
}
