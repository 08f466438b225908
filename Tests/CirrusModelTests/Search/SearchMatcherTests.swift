import CirrusModel
import Testing

@Suite("Search matcher")
struct SearchMatcherTests {
    static let chinese = "响应式设计让网页在手机和电脑上都好看。世界和平！数据存储"

    /// Whether the query `q` (one term) matches `text`.
    static func finds(_ q: String, in text: String) throws -> Bool {
        guard case .leaf(.term(let term)) = try SearchQueryParser.parse(q) else { throw APIError(.internalError, "\(q) is not a term") }
        return SearchMatcher.matches(term, in: SearchTokenizer.tokens(in: text))
    }

    @Test("every one-, two- and three-character substring of Chinese text is found by its query tokens")
    func substrings() throws {
        let characters = Array(Self.chinese)
        let tokens = SearchTokenizer.tokens(in: Self.chinese)
        for length in 1...3 {
            for start in 0...(characters.count - length) {
                let substring = String(characters[start..<start + length])
                guard substring.allSatisfy({ $0 != "。" && $0 != "！" }) else { continue }
                let term = try SearchTerm(text: substring)
                #expect(SearchMatcher.matches(term, in: tokens), "\(substring)")
            }
        }
    }

    @Test("text that is not a substring is not found", arguments: [
        ("界世", "世界和平"), ("世和", "世界和平"), ("世界", "世，界"), ("平和", "世界和平"), ("数据库", "数据存储"),
        ("\"hello world\"", "world hello"), ("世界和平", "世界 和平"), ("hello", "hel"), ("hello*", "hel"), ("wor", "hello world"),
    ])
    func notFound(_ q: String, _ text: String) throws {
        #expect(try !Self.finds(q, in: text))
    }

    @Test("words, phrases and prefixes are found whatever their case, width and diacritics", arguments: [
        ("\"hello world\"", "Hello, World!"), ("hello-world", "Hello, World!"), ("\"hello world\"", "HELLO   world"), ("hel*", "Hello"), ("wor*", "hello world"),
        ("cafe", "Café crème"), ("ECOLE", "l'école"), ("hello", "ｈｅｌｌｏ"), ("カタカナ", "ｶﾀｶﾅ"), ("\"世界 和平\"", "世界和平"),
        ("leancloud数据", "LeanCloud数据存储2024年"), ("2024年", "LeanCloud数据存储2024年"),
    ])
    func found(_ q: String, _ text: String) throws {
        #expect(try Self.finds(q, in: text))
    }

    @Test("the start of each occurrence of a phrase is found")
    func occurrences() throws {
        let tokens = SearchTokenizer.tokens(in: "世界和平，世界")
        let term = try SearchTerm(text: "世界")
        #expect(SearchMatcher.occurrences(of: term.tokens, in: tokens) == [0, 4])
        #expect(SearchMatcher.occurrences(of: [], in: tokens).isEmpty)
    }

    @Test("a whole query is evaluated over a document's fields, ranges and existence decided by the caller", arguments: [
        ("设计", true), ("title:设计", true), ("body:设计", false), ("title:设计 AND body:hello", true),
        ("title:设计 AND NOT body:hello", false), ("-spam", true), ("spam OR hello", true), ("+spam hello", false),
        ("a AND b OR hello", false), ("price:[10 TO 20]", true), ("price:>20", false), ("_exists_:title", true),
        ("_missing_:title", false), ("*", true), ("missing:设计", false), ("\"设计 hello\"", false),
    ])
    func query(_ q: String, _ expected: Bool) throws {
        let fields = [
            FieldPath(field: "title"): SearchTokenizer.tokens(in: "响应式设计"),
            FieldPath(field: "body"): SearchTokenizer.tokens(in: "Hello there"),
        ]
        let query = try SearchQueryParser.parse(q)
        let matched = SearchMatcher.matches(query, fields: fields) { leaf in
            switch leaf {
            case .range(let range): range.contains(.number(15))
            case .exists(let field): fields[field] != nil
            case .term: false
            }
        }
        #expect(matched == expected)
    }

    @Test("a range holds values between its bounds, of its own kind", arguments: [
        ("n:[10 TO 20]", 10.0, true), ("n:{10 TO 20]", 10.0, false), ("n:[10 TO 20}", 20.0, false), ("n:>=10", 10.0, true),
        ("n:<10", 9.5, true), ("n:<10", 10.0, false), ("n:[* TO 20]", -1e9, true),
    ])
    func ranges(_ q: String, _ value: Double, _ expected: Bool) throws {
        guard case .leaf(.range(let range)) = try SearchQueryParser.parse(q) else {
            Issue.record("\(q) is not a range")
            return
        }
        #expect(range.contains(.number(value)) == expected)
        #expect(!range.contains(.date(Timestamp(millisecondsSince1970: 10))))
    }

    @Test("a date-only bound covers its whole day")
    func dayBounds() throws {
        guard case .leaf(.range(let range)) = try SearchQueryParser.parse("d:[2020-01-01 TO 2020-01-31]") else {
            Issue.record("not a range")
            return
        }
        let lastMoment = try #require(Timestamp(parsing: "2020-01-31T23:59:59.999Z"))
        let nextDay = try #require(Timestamp(parsing: "2020-02-01T00:00:00Z"))
        #expect(range.contains(.date(lastMoment)))
        #expect(!range.contains(.date(nextDay)))
    }
}
