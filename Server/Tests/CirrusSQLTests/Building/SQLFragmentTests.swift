import CirrusSQL
import Testing

@Suite("SQLFragment")
struct SQLFragmentTests {
    @Test("interpolation keeps text, raw text and bound values apart")
    func interpolation() {
        let name = "x'; DROP TABLE t; --"
        let fragment: SQLFragment = "SELECT \(raw: "\"id\"") FROM t WHERE a = \(bind: .text(name)) AND b = \(bind: .int(2))"
        #expect(fragment.description == #"SELECT "id" FROM t WHERE a = ? AND b = ?"#)
        #expect(fragment.bindings == [.text(name), .int(2)])
    }

    @Test("interpolating a fragment splices its text and bindings in place")
    func splicing() {
        let inner: SQLFragment = "b = \(bind: .double(1.5))"
        let outer: SQLFragment = "a = \(bind: .null) AND \(inner) AND c = \(bind: .text("z"))"
        #expect(outer.description == "a = ? AND b = ? AND c = ?")
        #expect(outer.bindings == [.null, .double(1.5), .text("z")])
    }

    @Test("placeholders are numbered in binding order in PostgreSQL and are all ? in SQLite")
    func render() {
        let fragment: SQLFragment = "a IN (\(bind: .int(1)), \(bind: .int(2))) AND b = \(bind: .text("x"))"
        #expect(PostgresDialect().render(fragment).sql == "a IN ($1, $2) AND b = $3")
        #expect(SQLiteDialect().render(fragment).sql == "a IN (?, ?) AND b = ?")
        #expect(PostgresDialect().render(fragment).bindings == [.int(1), .int(2), .text("x")])
    }

    @Test("joining puts the separator between fragments only")
    func joined() {
        let parts: [SQLFragment] = ["a = \(bind: .int(1))", "b", "c = \(bind: .int(3))"]
        let joined = parts.joined(separator: " OR ")
        #expect(joined.description == "a = ? OR b OR c = ?")
        #expect(joined.bindings == [.int(1), .int(3)])
        #expect([SQLFragment]().joined(separator: ", ").parts.isEmpty)
    }

    @Test("+ and append concatenate text and bindings")
    func concatenation() {
        var fragment: SQLFragment = "a = \(bind: .int(1))"
        fragment.append(" AND b = \(bind: .int(2))")
        let total = fragment + SQLFragment.bind(.text("t"))
        #expect(total.description == "a = ? AND b = ??")
        #expect(total.bindings == [.int(1), .int(2), .text("t")])
        #expect(SQLFragment("").parts.isEmpty)
    }

    @Test("identifiers and literals double embedded quotes")
    func quoting() {
        #expect(SQLiteDialect().quote(#"we"ird"#) == #""we""ird""#)
        #expect(PostgresDialect().literal("it's") == "'it''s'")
    }

    @Test("bound values describe themselves for logs")
    func valueDescriptions() {
        #expect(SQLValue.null.description == "NULL")
        #expect(SQLValue.int(-3).description == "-3")
        #expect(SQLValue.double(0.5).description == "0.5")
        #expect(SQLValue.text("a").description == "'a'")
        #expect(SQLValue.blob([1, 2]).description == "<2 bytes>")
    }
}
