import CirrusModel
import CirrusSQL
import Testing

@Suite("IndexStatements: expression indexes on JSON paths")
struct IndexStatementsTests {
    static func statements(_ dialect: any SQLDialect, _ path: String, _ type: FieldType?) -> [String] {
        IndexStatements(dialect: dialect, table: "o_item").ensure(path: FieldPath(path.split(separator: ".").map(String.init)), type: type)
    }

    @Test("a String field gets the json_extract index on SQLite, the JSONB and the C-collated text indexes on PostgreSQL")
    func string() {
        #expect(Self.statements(SQLiteDialect(), "name", .string) == [
            #"CREATE INDEX IF NOT EXISTS "o_item_i_name_8d39bde6" ON "o_item" ((json_extract("data", '$."name"')))"#,
        ])
        #expect(Self.statements(PostgresDialect(), "name", .string) == [
            #"CREATE INDEX IF NOT EXISTS "o_item_i_name_8d39bde6" ON "o_item" ((("data" #> '{"name"}')) NULLS FIRST)"#,
            #"CREATE INDEX IF NOT EXISTS "o_item_i_name_8d39bde6_2" ON "o_item" ((("data" #>> '{"name"}') COLLATE "C") NULLS FIRST)"#,
        ])
    }

    @Test("a Number field gets one index in both dialects; a Date is indexed on its iso, a Pointer on its objectId")
    func otherTypes() {
        #expect(Self.statements(PostgresDialect(), "score", .number).count == 1)
        #expect(Self.statements(SQLiteDialect(), "when", .date).first?.contains(#"json_extract("data", '$."when"."iso"')"#) == true)
        #expect(Self.statements(SQLiteDialect(), "owner", .pointer(targetClass: "_User")).first?.contains(#"'$."owner"."objectId"'"#) == true)
    }

    @Test("built-in fields and relations get no index", arguments: [
        ("createdAt", FieldType?.some(.date)), ("objectId", .string), ("likes", .relation(targetClass: "_User")),
    ])
    func none(_ path: String, _ type: FieldType?) {
        #expect(Self.statements(SQLiteDialect(), path, type).isEmpty)
        #expect(Self.statements(PostgresDialect(), path, type).isEmpty)
    }

    @Test("an Array field gets a GIN index on its JSONB value on PostgreSQL (what string membership conditions test), none on SQLite")
    func arrays() {
        #expect(Self.statements(SQLiteDialect(), "tags", .array).isEmpty)
        #expect(Self.statements(PostgresDialect(), "tags", .array) == [
            #"CREATE INDEX IF NOT EXISTS "o_item_i_tags_f416eba0" ON "o_item" USING gin ((("data" #> '{"tags"}')))"#
        ])
        #expect(IndexStatements(dialect: PostgresDialect(), table: "o_item").drop(path: FieldPath(field: "tags"), type: .array) == [
            #"DROP INDEX IF EXISTS "o_item_i_tags_f416eba0""#
        ])
    }

    @Test("index names differ for paths whose letters coincide")
    func distinctNames() {
        #expect(Self.statements(SQLiteDialect(), "a.b_c", nil) != Self.statements(SQLiteDialect(), "a_b.c", nil))
    }

    @Test("index names of long class names fit PostgreSQL's 63-byte identifiers and keep the path's hash")
    func longNames() {
        let table = "o_" + String(repeating: "x", count: 80)
        let statements = IndexStatements(dialect: PostgresDialect(), table: table).ensure(path: FieldPath(field: "name"), type: .string)
        let names = statements.map { $0.split(separator: "\"")[1] }
        #expect(names.allSatisfy { $0.utf8.count <= 63 }, "\(names)")
        #expect(names.first?.hasSuffix("_i_name_8d39bde6") == true)
        #expect(names.last?.hasSuffix("_i_name_8d39bde6_2") == true)
    }

    static let schema = ClassSchema(className: "Item", fields: ["name": .string, "score": .number, "when": .date])

    /// On PostgreSQL, ordering by a typed field must name the indexed expression in the index's null order (or its
    /// reverse), or the planner sorts every matching row instead of reading the index in order.
    @Test("ordering by a Number, String or Date field on PostgreSQL names the indexed expression with the index's null order", arguments: [
        ("score", FieldType.number), ("name", .string), ("when", .date),
    ])
    func orderReadsTheIndex(_ field: String, _ type: FieldType) throws {
        let dialect = PostgresDialect()
        let compiler = ConditionCompiler(dialect: dialect, schema: Self.schema)
        let statements = Self.statements(dialect, field, type)
        for descending in [false, true] {
            let term = dialect.render(try #require(compiler.orderTerms([SortKey(path: FieldPath(field: field), descending: descending)]).first)).sql
            let expression = String(term.dropLast(descending ? " DESC NULLS LAST".count : " ASC NULLS FIRST".count))
            #expect(statements.contains { $0.hasSuffix("((\(expression)) NULLS FIRST)") }, "\(term) in \(statements)")
        }
    }

    /// The compiled condition must contain the indexed expression verbatim, or the planner cannot use it.
    @Test("equality and ranges on schema-known scalar fields compare exactly the indexed expression", arguments: [
        (#"{"name":"alpha"}"#, "name", FieldType.string),
        (#"{"name":{"$gte":"a","$lt":"b"}}"#, "name", .string),
        (#"{"score":{"$gt":10}}"#, "score", .number),
        (#"{"score":{"$in":[1,2]}}"#, "score", .number),
        (#"{"when":{"$lt":{"__type":"Date","iso":"2020-01-01T00:00:00.000Z"}}}"#, "when", .date),
    ])
    func indexedExpressionIsCompiled(_ whereJSON: String, _ field: String, _ type: FieldType) throws {
        let condition = try Condition(where: JSONParser.parse(whereJSON))
        for dialect in [SQLiteDialect() as any SQLDialect, PostgresDialect()] {
            let sql = dialect.render(ConditionCompiler(dialect: dialect, schema: Self.schema).compile(condition)).sql
            let expressions = Self.statements(dialect, field, type).map { statement in
                // `CREATE INDEX … ON "o_item" ((expression))`, with ` NULLS FIRST` before the last parenthesis on PostgreSQL
                String(statement.split(separator: "((", maxSplits: 1)[1].replacing(") NULLS FIRST)", with: "))").dropLast(2))
            }
            #expect(expressions.contains { sql.contains($0) }, "\(dialect.name): \(sql)")
        }
    }
}
