import CirrusModel
import Testing

@Suite("Search tokenizer")
struct SearchTokenizerTests {
    /// Each token as `text@start-end` (UTF-16 offsets into the original).
    static func spelled(_ text: String) -> [String] {
        SearchTokenizer.tokens(in: text).map { "\($0.text)@\($0.startOffset)-\($0.endOffset)" }
    }

    @Test("text is cut into folded tokens with UTF-16 offsets into the original", arguments: [
        ("世界", ["世界@0-2", "界@1-2"]),
        ("响应式设计", ["响应@0-2", "应式@1-3", "式设@2-4", "设计@3-5", "计@4-5"]),
        ("设计，世界。", ["设计@0-2", "计@1-2", "世界@3-5", "界@4-5"]),
        ("日本語のテキスト", ["日本@0-2", "本語@1-3", "語の@2-4", "のテ@3-5", "テキ@4-6", "キス@5-7", "スト@6-8", "ト@7-8"]),
        ("한국어 검색", ["한국@0-2", "국어@1-3", "어@2-3", "검색@4-6", "색@5-6"]),
        ("Hello, World! It's 3.14", ["hello@0-5", "world@7-12", "it@14-16", "s@17-18", "3@19-20", "14@21-23"]),
        ("Café Crème à l'école", ["cafe@0-4", "creme@5-10", "a@11-12", "l@13-14", "ecole@15-20"]),
        ("ÜBER naïve Ångström", ["uber@0-4", "naive@5-10", "angstrom@11-19"]),
        ("ＨＥＬＬＯ　１２３", ["hello@0-5", "123@6-9"]),
        ("ｶﾀｶﾅ", ["カタ@0-2", "タカ@1-3", "カナ@2-4", "ナ@3-4"]),
        ("ﾃﾞｰﾀ", ["デー@0-3", "ータ@2-4", "タ@3-4"]),
        ("LeanCloud数据存储2024年", ["leancloud@0-9", "数据@9-11", "据存@10-12", "存储@11-13", "储@12-13", "2024@13-17", "年@17-18"]),
        ("I ❤️ 北京 🎉!", ["i@0-1", "北京@5-7", "京@6-7"]),
        ("𠀀𠀁", ["𠀀𠀁@0-4", "𠀁@2-4"]),
        ("hello_world don't", ["hello@0-5", "world@6-11", "don@12-15", "t@16-17"]),
        ("  ,.;!? ", []),
        ("", []),
    ])
    func tokens(_ text: String, _ expected: [String]) {
        #expect(Self.spelled(text) == expected)
    }

    @Test("positions start at 1 and follow one another, and each range is the token's span of the original", arguments: [
        "LeanCloud数据存储2024年", "Café, 世界！ ｈｅｌｌｏ", "ｶﾞｷﾞ 한국",
    ])
    func positionsAndRanges(_ text: String) {
        let tokens = SearchTokenizer.tokens(in: text)
        #expect(tokens.map(\.position) == Array(1...tokens.count))
        for token in tokens {
            let utf16 = Array(text.utf16)
            #expect(Array(text[token.range].utf16) == Array(utf16[token.startOffset..<token.endOffset]))
        }
    }

    @Test("forms that mean the same text give the same tokens", arguments: [
        ("ｈｅｌｌｏ", "Hello"), ("ﾊﾝｸﾞﾙ", "ハングル"), ("\u{1112}\u{1161}\u{11AB}국", "한국"), ("e\u{301}cole", "École"),
        ("ガ", "ｶﾞ"), ("豈", "豈"), ("葛\u{E0100}", "葛"), ("ＡＢＣ１２３", "abc123"),
    ])
    func folding(_ left: String, _ right: String) {
        #expect(SearchTokenizer.tokens(in: left).map(\.text) == SearchTokenizer.tokens(in: right).map(\.text))
    }

    @Test("query tokens mark the end of each CJK run and a written trailing * as prefixes", arguments: [
        ("世界", false, ["世界", "界*"]),
        ("界", false, ["界*"]),
        ("响应式", false, ["响应", "应式", "式*"]),
        ("世界 和平", false, ["世界", "界*", "和平", "平*"]),
        ("hello", false, ["hello"]),
        ("hel", true, ["hel*"]),
        ("hello world", true, ["hello", "world*"]),
        ("数据*", true, ["数据", "据*"]),
        ("LeanCloud数据", false, ["leancloud", "数据", "据*"]),
    ])
    func queryTokens(_ text: String, _ prefix: Bool, _ expected: [String]) {
        #expect(SearchTokenizer.queryTokens(in: text, prefix: prefix).map(\.description) == expected)
    }

    @Test("a token longer than 64 characters is cut to 64, alike in documents and queries")
    func longTokens() {
        let word = String(repeating: "ab", count: 50)
        let tokens = SearchTokenizer.tokens(in: "x \(word) y")
        #expect(tokens.map(\.text) == ["x", String(word.prefix(64)), "y"])
        #expect(tokens[1].startOffset == 2 && tokens[1].endOffset == 102)
        #expect(SearchTokenizer.queryTokens(in: word).map(\.text) == [String(word.prefix(64))])
    }

    @Test("a value keeps its first 16 383 tokens")
    func tokenLimit() {
        let tokens = SearchTokenizer.tokens(in: String(repeating: "a ", count: 20_000) + "last")
        #expect(tokens.count == SearchTokenizer.maximumTokens)
        #expect(tokens.last?.position == 16_383)
        #expect(!tokens.contains { $0.text == "last" })
    }

    @Test("tokens hold only letters, digits and marks, ASCII ones lowercase letters and digits, whatever the text")
    func tokenCharacters() {
        var generator = SeededGenerator(seed: 7)
        let samples = [
            "Tom's \"quote\" \\back\\slash 'single' a:b (x) [y] {z} a|b a&b !c -d +e *f ~g ^h /i/ <j> k=l",
            "ﬁ ½ ① Ⅻ ǅ İstanbul Straße हिन्दी ελληνικά й ﾞ ﾟ 〇〆々 ㍿ ＠＃",
        ] + (0..<300).map { _ in
            String(String.UnicodeScalarView((0..<30).compactMap { _ in Unicode.Scalar(UInt32.random(in: 0...0x3_0000, using: &generator)) }))
        }
        for sample in samples {
            for token in SearchTokenizer.tokens(in: sample) {
                #expect(!token.text.isEmpty)
                #expect(token.text.unicodeScalars.allSatisfy(Self.isTokenScalar), "\(token.text) from \(sample)")
            }
        }
    }

    static func isTokenScalar(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.isASCII { return ("a"..."z").contains(scalar) || ("0"..."9").contains(scalar) }
        switch scalar.properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter, .decimalNumber, .letterNumber,
            .otherNumber, .nonspacingMark, .spacingMark, .enclosingMark:
            return true
        default:
            return false
        }
    }

    @Test("a value's tokens are written as FTS5 text and as a tsvector literal")
    func storeForms() {
        let tokens = SearchTokenizer.tokens(in: "世界 hello, 世界")
        #expect(SearchTokenizer.fts5Text(tokens) == "世界 界 hello 世界 界")
        #expect(SearchTokenizer.tsvector(tokens) == "'世界':1,4 '界':2,5 'hello':3")
        #expect(SearchTokenizer.tsvector([]) == "")
    }
}
