import CirrusModel
import CirrusSQL
import Testing

/// Statements grow with their query, never faster: nested sub-queries and long lists stay within what the databases
/// compile and bind.
@Suite("ConditionCompiler: statement size")
struct ConditionCompilerSizeTests {
    static let tables = ClassTables(["Node": ClassTables.Entry(table: "o_node", schema: nil)])

    /// `$inQuery` and `$select` nested `depth` deep on fields no schema knows (so each is tested on the field and on
    /// its elements).
    static func nested(_ depth: Int) -> Condition {
        (0..<depth).reduce(Condition.compare(FieldPath(field: "name"), .equal, .string("leaf"))) { inner, level in
            let query = SubQuery(className: "Node", condition: inner)
            return level.isMultiple(of: 2)
                ? .inQuery(FieldPath(field: "next"), query, negated: false)
                : .select(FieldPath(field: "other"), query, key: FieldPath(field: "name"), negated: false)
        }
    }

    @Test("nested sub-queries grow the statement linearly, in both dialects")
    func nestedSubQueries() {
        for dialect in [SQLiteDialect() as any SQLDialect, PostgresDialect()] {
            let sizes = [1, 10, 30].map { depth in
                dialect.render(ConditionCompiler(dialect: dialect, schema: nil, tables: Self.tables).compile(Self.nested(depth)))
            }
            #expect(sizes[2].sql.utf8.count < 40 * sizes[0].sql.utf8.count, "\(dialect.name): \(sizes.map(\.sql.utf8.count))")
            #expect(sizes[2].bindings.count <= 2 * 30 + 2, "\(dialect.name): \(sizes.map(\.bindings.count))")
        }
    }

    @Test("a list of thousands of values binds one parameter, and a statement over the database's bound is refused")
    func longLists() throws {
        let values = (0..<20_000).map { Value.string("id\($0)") }
        let pointers = (0..<20_000).map { Value.pointer(Pointer(className: "Node", objectId: "n\($0)")) }
        for dialect in [SQLiteDialect() as any SQLDialect, PostgresDialect()] {
            let compiler = ConditionCompiler(dialect: dialect, schema: nil, tables: Self.tables)
            for condition: Condition in [
                .inList(FieldPath(field: "tag"), values, negated: false), .inList(FieldPath(field: "objectId"), values, negated: true),
                .inList(FieldPath(field: "owner"), pointers, negated: false), .containsAll(FieldPath(field: "tags"), values),
            ] {
                let rendered = try dialect.renderForDatabase(compiler.compile(condition))
                #expect(rendered.bindings.count <= 6, "\(dialect.name): \(rendered.bindings.count) parameters")
            }
            let wide = Condition.or((0..<(dialect.maximumParameters / 2 + 1)).map { .compare(FieldPath(field: "f\($0)"), .equal, .int(Int64($0))) })
            #expect { try dialect.renderForDatabase(compiler.compile(wide)) } throws: { ($0 as? APIError)?.reason == .queryTooComplex }
        }
    }
}
