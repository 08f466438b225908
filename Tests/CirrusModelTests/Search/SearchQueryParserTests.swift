import CirrusModel
import Testing

@Suite("Search query parser")
struct SearchQueryParserTests {
    @Test("each supported form parses to its query", arguments: [
        ("设计", "<设计 计*>"),
        ("hello", "<hello>"),
        ("  Hello  ", "<hello>"),
        ("\"hello world\"", "<hello world>"),
        ("hello-world", "<hello world>"),
        ("title:hello", "title:<hello>"),
        ("title: hello", "title:<hello>"),
        ("title:\"hello world\"", "title:<hello world>"),
        ("player.objectId:abc", "player.objectId:<abc>"),
        ("_private:x", "_private:<x>"),
        ("title:(a OR b)", "OR(title:<a>, title:<b>)"),
        ("title:(a content:b)", "OR(title:<a>, content:<b>)"),
        ("a b", "OR(<a>, <b>)"),
        ("a\u{3000}b", "OR(<a>, <b>)"),
        ("a OR b", "OR(<a>, <b>)"),
        ("a || b", "OR(<a>, <b>)"),
        ("a AND b", "AND(<a>, <b>)"),
        ("a && b", "AND(<a>, <b>)"),
        ("a AND(b)", "AND(<a>, <b>)"),
        ("NOT a", "NOT(<a>)"),
        ("!a", "NOT(<a>)"),
        ("-a", "NOT(<a>)"),
        ("+a", "<a>"),
        ("a -b", "AND(<a>, NOT(<b>))"),
        ("a - b", "AND(<a>, NOT(<b>))"),
        ("a NOT b", "AND(<a>, NOT(<b>))"),
        ("a AND NOT b", "AND(<a>, NOT(<b>))"),
        ("a OR NOT b", "AND(<a>, NOT(<b>))"),
        ("+a b -c", "AND(<a>, NOT(<c>))"),
        ("-a -b", "AND(NOT(<a>), NOT(<b>))"),
        ("a AND b OR c", "AND(<a>, <b>)"),
        ("a OR b AND c", "AND(<b>, <c>)"),
        ("(a OR b) AND c", "AND(OR(<a>, <b>), <c>)"),
        ("(a)", "<a>"),
        ("((a b))", "OR(<a>, <b>)"),
        ("a\"b c\"", "OR(<a>, <b c>)"),
        ("hel*", "<hel*>"),
        ("title:hel*", "title:<hel*>"),
        ("世界*", "<世界 界*>"),
        ("*", "*"),
        ("*:*", "*"),
        ("* -spam", "AND(*, NOT(<spam>))"),
        ("title:*", "_exists_:title"),
        ("_exists_:title", "_exists_:title"),
        ("_exists_:avatar.url", "_exists_:avatar.url"),
        ("_missing_:title", "NOT(_exists_:title)"),
        ("price:[10 TO 20]", "price:[10.0 TO 20.0]"),
        ("price:{10 TO 20}", "price:{10.0 TO 20.0}"),
        ("price:[10 TO 20}", "price:[10.0 TO 20.0}"),
        ("price:[ 10  TO  20 ]", "price:[10.0 TO 20.0]"),
        ("price:[* TO 20]", "price:{* TO 20.0]"),
        ("price:{10 TO *]", "price:{10.0 TO *}"),
        ("price:[-1.5 TO 2e3]", "price:[-1.5 TO 2000.0]"),
        ("price:[\"1\" TO \"2\"]", "price:[1.0 TO 2.0]"),
        ("age:>10", "age:{10.0 TO *}"),
        ("age:>=10", "age:[10.0 TO *}"),
        ("age:<10", "age:{* TO 10.0}"),
        ("age:<=10", "age:{* TO 10.0]"),
        ("age:(>=10 AND <20)", "AND(age:[10.0 TO *}, age:{* TO 20.0})"),
        ("createdAt:[2020-01-01 TO 2020-01-31]", "createdAt:[2020-01-01T00:00:00.000Z TO 2020-01-31T23:59:59.999Z]"),
        ("createdAt:{2020-01-01 TO 2020-02-01}", "createdAt:{2020-01-01T23:59:59.999Z TO 2020-02-01T00:00:00.000Z}"),
        ("createdAt:>2020-01-01T08:00:00+08:00", "createdAt:{2020-01-01T00:00:00.000Z TO *}"),
        ("date.iso:[2020-01-01T00:00:00.5Z TO *]", "date.iso:[2020-01-01T00:00:00.500Z TO *}"),
        ("a\\:b", "<a b>"),
        ("\\(x\\)", "<x>"),
        ("\\AND", "<and>"),
        ("hel\\*", "<hel>"),
        ("ANDROID and", "OR(<android>, <and>)"),
        ("NOTE", "<note>"),
        ("NOT-a", "<not a>"),
        ("a&&b", "<a b>"),
        ("LeanCloud数据", "<leancloud 数据 据*>"),
    ])
    func accepts(_ q: String, _ expected: String) throws {
        #expect(try SearchQueryParser.parse(q).description == expected)
    }

    @Test("each unsupported or malformed form is refused with a message that says what and where", arguments: [
        ("", "the query is empty"),
        ("   ", "the query is empty"),
        ("\"hello", "unbalanced quotes: the \" at column 1 is not closed"),
        ("(a", "unbalanced parentheses: the ( at column 1 is not closed"),
        ("a)", "the ) at column 2 has no matching ("),
        ("(a))", "the ) at column 4 has no matching ("),
        ("()", "the parentheses at column 1 are empty"),
        ("a AND", "AND at column 3 has nothing after it"),
        ("a ||", "|| at column 3 has nothing after it"),
        ("AND a", "AND at column 1 has nothing before it"),
        ("a AND OR b", "OR at column 7 follows another operator"),
        ("NOT", "NOT at column 1 has nothing after it"),
        ("a -", "- at column 3 has nothing after it"),
        ("(a -)", "- at column 4 has nothing after it"),
        ("NOT -a", "NOT at column 1 is followed by another operator"),
        ("a!", "! at column 2 has nothing after it"),
        ("/ab/", "regular expressions (/…/) are not supported (column 1)"),
        ("a/b", "regular expressions (/…/) are not supported (column 2)"),
        ("hello~", "fuzzy and proximity searches (~) are not supported (column 6)"),
        ("hello~2", "fuzzy and proximity searches (~) are not supported"),
        ("\"a b\"~2", "proximity searches (\"…\"~N) are not supported (column 6)"),
        ("hello^2", "boosts (^) are not supported (column 6)"),
        ("(a b)^2", "boosts (^) are not supported (column 6)"),
        ("h?llo", "wildcards other than a trailing * are not supported: h?llo at column 1"),
        ("*ello", "wildcards other than a trailing * are not supported"),
        ("he*lo", "wildcards other than a trailing * are not supported"),
        ("hel**", "wildcards other than a trailing * are not supported"),
        ("?", "wildcards other than a trailing * are not supported"),
        ("\"a b\"*", "wildcards other than a trailing * on a word are not supported (column 6)"),
        ("price:[a TO b]", "ranges compare numbers or dates: a at column 8 is neither"),
        ("price:>abc", "ranges compare numbers or dates: abc at column 7 is neither"),
        ("price:[1 TO 2020-01-01]", "the range at column 7 compares a number with a date"),
        ("price:[* TO *]", "the range at column 7 has no bound"),
        ("price:[1 TO 2", "the range at column 7 is not closed with ] or }"),
        ("price:[1 2]", "the range at column 7 has no TO"),
        ("price:[1 TO ]", "the range at column 7 is missing a bound at column 13"),
        ("price:[2020-13-01 TO *]", "ranges compare numbers or dates: 2020-13-01 at column 8 is neither"),
        ("[1 TO 2]", "a range needs a field, as in price:[10 TO 20] (column 1)"),
        (">5", "a comparison needs a field, as in age:>18 (column 1)"),
        ("age:>", "the comparison at column 5 has no value"),
        (":a", ": at column 1 follows no field name"),
        ("a:b:c", "the : at column 4 follows a field's value"),
        ("a b:", "the field b at column 3 has no value"),
        ("(b:)", "the field b at column 2 has no value"),
        ("1a:b", "1a before the : at column 3 is not a field name"),
        ("a..b:c", "a..b before the : at column 5 is not a field name"),
        ("a\\.b:c", "a\\.b before the : at column 5 is not a field name"),
        ("title:-a", "the value of title at column 7 is an operator"),
        ("title:AND", "the value of title at column 7 is an operator"),
        ("_exists_:\"x\"", "_exists_ takes a field name, as in _exists_:title (column 10)"),
        ("_missing_:a*", "_missing_ takes a field name"),
        ("*:a", "* at column 1 is not a field name; only *:* may name every field"),
        ("@@@", "@@@ at column 1 has nothing to search for"),
        ("title:@@", "@@ at column 7 has nothing to search for"),
        ("\"!!\"", "the phrase at column 1 has nothing to search for"),
        ("a ]", "] at column 3 closes no range"),
        ("a\\", "the \\ at column 2 escapes nothing"),
    ])
    func refuses(_ q: String, _ fragment: String) {
        #expect {
            _ = try SearchQueryParser.parse(q)
        } throws: { error in
            guard let error = error as? APIError else { return false }
            return error.reason == .invalidQuery && error.message.contains(fragment)
        }
    }

    @Test("a query of 4 096 characters parses and a longer one is too complex")
    func length() throws {
        let longest = String(repeating: "a", count: SearchQueryParser.maximumLength)
        #expect(try SearchQueryParser.parse(longest).description == "<\(String(repeating: "a", count: 64))>")
        #expect(reason { _ = try SearchQueryParser.parse(longest + "a") } == .queryTooComplex)
    }

    @Test("parentheses may nest 32 deep, and deeper nesting is too complex without recursing further")
    func depth() throws {
        func nested(_ depth: Int) -> String { String(repeating: "(", count: depth) + "a" + String(repeating: ")", count: depth) }
        #expect(try SearchQueryParser.parse(nested(32)).description == "<a>")
        #expect(reason { _ = try SearchQueryParser.parse(nested(33)) } == .queryTooComplex)
        #expect(reason { _ = try SearchQueryParser.parse(String(repeating: "(", count: 4000)) } == .queryTooComplex)
        #expect(reason { _ = try SearchQueryParser.parse("title:" + nested(33)) } == .queryTooComplex)
    }

    @Test("a query may hold 256 clauses, not more")
    func clauses() throws {
        let terms = (0..<256).map { "w\($0)" }
        #expect(try SearchQueryParser.parse(terms.joined(separator: " ")).leaves.count == 256)
        #expect(reason { _ = try SearchQueryParser.parse((terms + ["x"]).joined(separator: " ")) } == .queryTooComplex)
        #expect(reason { _ = try SearchQueryParser.parse(String(repeating: "* ", count: 257)) } == .queryTooComplex)
    }

    @Test("random text of special characters and letters either parses or is refused with an API error")
    func randomInput() {
        var generator = SeededGenerator(seed: 2024)
        let alphabet = Array("\"():*[]{}\\!+-&|~^/ <>=?.abAB世界_").map { String($0) } + ["AND", "OR", "NOT", "TO", " TO ", "x:", "10", "2020-01-01"]
        var parsed = 0
        for _ in 0..<5000 {
            let q = (0..<Int.random(in: 0...30, using: &generator)).map { _ in alphabet.randomElement(using: &generator) ?? "" }.joined()
            do throws(APIError) {
                let query = try SearchQueryParser.parse(q)
                parsed += 1
                for case .term(let term) in query.leaves {
                    #expect(!term.tokens.isEmpty)
                    #expect(term.tokens.allSatisfy { !$0.text.isEmpty && !$0.text.contains("\"") && !$0.text.contains("'") })
                }
            } catch {
                #expect(error.reason == .invalidQuery || error.reason == .queryTooComplex, "\(q): \(error)")
                #expect(!error.message.isEmpty)
            }
        }
        #expect(parsed > 100)
    }

    @Test("a term renders as an FTS5 phrase and a tsquery literal", arguments: [
        ("世界", "\"世界\" + \"界\"*", "'世界' <-> '界':*"),
        ("界", "\"界\"*", "'界':*"),
        ("hello", "\"hello\"", "'hello'"),
        ("hel*", "\"hel\"*", "'hel':*"),
        ("\"Hello World\"", "\"hello\" + \"world\"", "'hello' <-> 'world'"),
        ("title:数据库", "\"数据\" + \"据库\" + \"库\"*", "'数据' <-> '据库' <-> '库':*"),
    ])
    func storeForms(_ q: String, _ fts5: String, _ tsquery: String) throws {
        guard case .leaf(.term(let term)) = try SearchQueryParser.parse(q) else {
            Issue.record("\(q) is not a term")
            return
        }
        #expect(term.fts5Phrase == fts5)
        #expect(term.tsquery == tsquery)
    }

    @Test("a term keeps its field as path segments and its text as written")
    func termParts() throws {
        guard case .leaf(.term(let term)) = try SearchQueryParser.parse("avatar.url:\"Hello, World\"") else {
            Issue.record("not a term")
            return
        }
        #expect(term.field?.segments == ["avatar", "url"])
        #expect(term.text == "Hello, World")
        #expect(term.isQuoted)
    }

    @Test("a term built from text with nothing to search for is refused")
    func emptyTerm() {
        #expect(reason { _ = try SearchTerm(text: "...") } == .invalidQuery)
    }
}
