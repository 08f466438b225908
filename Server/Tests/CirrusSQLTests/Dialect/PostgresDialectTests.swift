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

    @Test("a pattern's leading inline options join the query's, since PostgreSQL takes embedded options only at the start",
          arguments: [("(?i)^b", "", "(?pi)^b"), ("(?i)(?m)a", "", "(?ni)a"), ("(?s)a", "i", "(?i)a"), ("(?x)a", "", "(?px)a")])
    func leadingInlineOptions(_ pattern: String, _ options: String, _ expected: String) {
        #expect(PostgresRegex.translate(pattern, options: options) == expected)
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

    @Test("increments add integers as numeric unless the stored number is a double, and doubles as float8 (SQLite's arithmetic)")
    func incrementBindings() {
        let dialect = PostgresDialect()
        let target = dialect.target(column: "data", path: FieldPath(field: "n"))
        let integer = dialect.incremented(target, by: .int(2))
        #expect(integer.bindings == [.int(2), .int(2)])
        #expect(integer.description.contains("cirrus_double_jsonb(((\"data\" #> '{\"n\"}'))::float8 + ?::float8)"))
        #expect(integer.description.contains("ELSE 0 END + ?::numeric)"))
        let double = dialect.incremented(target, by: .double(0.2))
        #expect(double.bindings == [.double(0.2)])
        #expect(double.description.hasPrefix("cirrus_double_jsonb("))
    }
}
