import CirrusModel
@testable import CirrusSQL
import Testing

@Suite("PostgresDialect")
struct PostgresDialectTests {
    @Test("Mongo options become embedded ARE options: p by default, n for m, w for m with s, none for s alone",
          arguments: [
              ("", "(?p)a.b"), ("i", "(?pi)a.b"), ("m", "(?n)a.b"), ("ms", "(?w)a.b"), ("s", "a.b"), ("si", "(?i)a.b"),
              ("x", "(?px)a.b"), ("mix", "(?nix)a.b"),
          ])
    func regexOptions(_ options: String, _ expected: String) {
        #expect(PostgresRegex.translate("a.b", options: options) == expected)
    }

    @Test("\\Q…\\E spans are expanded with every metacharacter, # and space escaped")
    func quoting() {
        #expect(PostgresRegex.expandQuoting(#"^\Qa.b*(c)\E$"#) == #"^a\.b\*\(c\)$"#)
        #expect(PostgresRegex.expandQuoting(#"\Q# x\E"#) == ##"\#\ x"##)
        #expect(PostgresRegex.expandQuoting(#"\Qopen"#) == "open")
        #expect(PostgresRegex.expandQuoting(#"a\E\d"#) == #"a\E\d"#)
    }

    @Test("a path literal quotes every segment as a text array element")
    func pathLiteral() {
        #expect(PostgresDialect().pathLiteral(FieldPath(["a", "0", "b c"])) == #"'{"a","0","b c"}'"#)
    }

    @Test("increments bind integers as bigint and floating-point amounts as their JSON text")
    func incrementBindings() {
        let dialect = PostgresDialect()
        let target = dialect.target(column: "data", path: FieldPath(field: "n"))
        #expect(dialect.incremented(target, by: .int(2)).bindings == [.int(2)])
        #expect(dialect.incremented(target, by: .double(1.0)).bindings == [.text("1.0")])
        #expect(dialect.incremented(target, by: .double(1e20)).bindings == [.text("1e+20")])
    }
}
