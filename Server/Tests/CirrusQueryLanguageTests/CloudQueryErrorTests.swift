import CirrusModel
import CirrusQueryLanguage
import Testing

/// Every way a statement can be refused, with the line and column the error names.
@Suite("CQL and BQL errors")
struct CloudQueryErrorTests {
    @Test("an error names its line and column")
    func describesPosition() {
        #expect(CloudQueryError(line: 1, column: 10, detail: "expected from").description == "Parse error at line 1, column 10: expected from")
    }

    @Test("the report is LeanCloud's: position, the line, a caret and the expected tokens")
    func leanCloudReport() throws {
        let source = "select * GameScore limit 10"
        let error = try #require(throws: CloudQueryError.self) { try CloudQueryLanguage.cql.parse(source) }
        #expect(error.line == 1)
        #expect(error.column == 10)
        #expect(error.expected == ["from", ","])
        #expect(error.report(for: source) == "Parse error at line 1, column 10:\nselect * GameScore limit 10\n         ^\nExpected one of:\nfrom\n,\n")
    }

    @Test("with CRLF line ends the report shows the line the error names (found by fuzzing)")
    func crlfReport() throws {
        let source = "select *\r\nfrom C\r\nwhere a = = 1"
        let error = try #require(throws: CloudQueryError.self) { try CloudQueryLanguage.cql.parse(source) }
        #expect(error.line == 3)
        #expect(error.report(for: source).hasPrefix("Parse error at line 3, column 11:\nwhere a = = 1\n          ^\n"))
    }

    struct Case: Sendable, CustomTestStringConvertible {
        let label: String
        let source: String
        var language: CloudQueryLanguage = .cql
        var values: [JSON] = []
        let line: Int
        let column: Int
        let detail: String
        var testDescription: String { label }
    }

    static let long = "select * from C where a = '" + String(repeating: "x", count: 5000) + "'"

    static let cases: [Case] = [
        Case(label: "missing from", source: "select * GameScore limit 10", line: 1, column: 10, detail: "unexpected 'GameScore'"),
        Case(label: "unknown statement", source: "drop table C", line: 1, column: 1, detail: "unexpected 'drop'"),
        Case(label: "unterminated string", source: "select * from C where name = 'abc", line: 1, column: 30, detail: "unterminated string"),
        Case(label: "unexpected character", source: "select * from C where a = #", line: 1, column: 27, detail: "unexpected character '#'"),
        Case(label: "error on a later line", source: "select *\nfrom C\nwhere a = = 1", line: 3, column: 11, detail: "unexpected '='"),
        Case(label: "order by must come last", source: "select * from C order by a limit 1", line: 1, column: 28, detail: "unexpected 'limit'"),
        Case(label: "trailing tokens", source: "select * from C limit 1 2", line: 1, column: 25, detail: "unexpected '2'"),
        Case(label: "missing closing parenthesis", source: "select * from C where (a = 1", line: 1, column: 29, detail: "unexpected the end of the statement"),
        Case(label: "operator missing", source: "select * from C where a 1", line: 1, column: 25, detail: "unexpected '1'"),
        Case(label: "not without like, regexp or in", source: "select * from C where a not exists", line: 1, column: 29, detail: "unexpected 'exists'"),
        Case(label: "unknown function", source: "select * from C where a = foo(1)", line: 1, column: 27, detail: "unknown function foo()"),
        Case(label: "too few arguments", source: "select * from C where a = pointer('C')", line: 1, column: 27, detail: "pointer() takes 2 arguments, got 1"),
        Case(label: "too many arguments", source: "select * from C where a = date('x', 'y')", line: 1, column: 27, detail: "date() takes 1 argument, got 2"),
        Case(label: "arguments to current_timestamp", source: "select * from C where a < current_timestamp(1)", line: 1, column: 27, detail: "current_timestamp() takes 0 arguments, got 1"),
        Case(label: "statement too long", source: long, line: 1, column: 4097, detail: "at most 4096 are allowed"),
        Case(label: "placeholder without a value", source: "select * from C where a = ? and b = ?", values: [1], line: 1, column: 37, detail: "no value for placeholder 2"),
        Case(label: "value without a placeholder", source: "select * from C where a = ?", values: [1, 2], line: 1, column: 28, detail: "2 values were given for 1 placeholder"),
        Case(label: "BQL statistic in CQL", source: "select sum(score) from C", line: 1, column: 8, detail: "sum is BQL statistics syntax"),
        Case(label: "BQL group by in CQL", source: "select * from C group by a", line: 1, column: 17, detail: "group by is BQL statistics syntax"),
        Case(label: "BQL groupcount in CQL", source: "select groupcount from C", line: 1, column: 8, detail: "groupcount is BQL statistics syntax"),
        Case(label: "BQL having in CQL", source: "select * from C having a > 1", line: 1, column: 17, detail: "having is BQL statistics syntax"),
        Case(
            label: "BQL placeholder in having", source: "select sum(score) from C group by name having _sumScore > ?", language: .bql, values: [1],
            line: 1, column: 59, detail: "placeholders are not allowed in having"
        ),
        Case(label: "BQL placeholder in insert values", source: "insert into C(a) values (?)", language: .bql, values: [1], line: 1, column: 26, detail: "placeholders are not allowed in insert values"),
        Case(label: "BQL placeholder in set", source: "update C set a = ? where objectId = 'x'", language: .bql, values: [1], line: 1, column: 18, detail: "placeholders are not allowed in set"),
        Case(label: "placeholder in order by", source: "select * from C order by ?", line: 1, column: 26, detail: "placeholders are not allowed in order by"),
        Case(label: "placeholder in group by", source: "select sum(a) from C group by ?", language: .bql, line: 1, column: 31, detail: "placeholders are not allowed in group by"),
        Case(label: "limit not a number", source: "select * from C limit 'x'", line: 1, column: 23, detail: "unexpected 'x'; expected one of: a number"),
        Case(label: "limit placeholder not an integer", source: "select * from C limit ?", values: ["x"], line: 1, column: 23, detail: "limit takes a non-negative integer"),
        Case(label: "like takes a string", source: "select * from C where a like 1", line: 1, column: 30, detail: "like takes a string"),
        Case(label: "invalid regular expression", source: "select * from C where a regexp '('", line: 1, column: 23, detail: "regular expression"),
        Case(label: "invalid date", source: "select * from C where a > date('nope')", line: 1, column: 32, detail: "date() takes a date"),
        Case(label: "pointer with a bad class", source: "select * from C where a = pointer('1x', 'id')", line: 1, column: 27, detail: "Malformed pointer"),
        Case(label: "geopoint out of range", source: "select * from C where loc near geopoint(10, 100)", line: 1, column: 32, detail: "atitude"),
        Case(label: "geo inside or", source: "select * from C where a = 1 or loc near [1, 2]", line: 1, column: 32, detail: "cannot be used inside or"),
        Case(label: "op in a condition", source: "select * from C where a = op('Increment', {amount: 1})", line: 1, column: 27, detail: "op() is an update operation"),
        Case(label: "unknown op", source: "update C set a = op('Explode') where objectId = 'x'", line: 1, column: 18, detail: "Explode"),
        Case(label: "update without objectId", source: "update C set a = 1 where b = 2", line: 1, column: 20, detail: "need 'objectId = …'"),
        Case(label: "delete without where", source: "delete from C", line: 1, column: 14, detail: "unexpected the end of the statement"),
        Case(label: "insert row of the wrong size", source: "insert into C(a, b) values (1)", line: 1, column: 28, detail: "1 value for 2 keys"),
        Case(label: "insert dotted key", source: "insert into C(a.b) values (1)", line: 1, column: 15, detail: "top-level keys"),
        Case(label: "size compared with a string", source: "select * from C where size(tags) = 'x'", line: 1, column: 36, detail: "size() takes a non-negative integer"),
        Case(label: "sub-select with two keys", source: "select * from C where a in (select x, y from D)", line: 1, column: 46, detail: "exactly one key"),
        Case(label: "statistics with *", source: "select *, sum(a) from C", language: .bql, line: 1, column: 8, detail: "* cannot be selected with statistics"),
        Case(label: "selected key outside group by", source: "select name, sum(a) from C group by kind", language: .bql, line: 1, column: 8, detail: "must be a group by key"),
        Case(label: "having with like", source: "select sum(a) from C group by k having k like 'x'", language: .bql, line: 1, column: 40, detail: "having takes comparisons"),
        Case(label: "count with an argument other than * or objectId", source: "select count(name) from C", line: 1, column: 14, detail: "unexpected 'name'"),
    ]

    @Test("a bad statement is refused at the offending position", arguments: cases)
    func refused(_ testCase: Case) throws {
        let compiler = StatementCompiler(language: testCase.language, values: testCase.values, now: Timestamp(millisecondsSince1970: 0))
        let error = try #require(throws: CloudQueryError.self) { try compiler.compile(testCase.source) }
        #expect(error.line == testCase.line)
        #expect(error.column == testCase.column)
        #expect(error.detail.contains(testCase.detail), "\(error.detail)")
    }
}
