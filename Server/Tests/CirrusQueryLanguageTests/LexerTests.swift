@testable import CirrusQueryLanguage
import Testing

@Suite("CQL lexer")
struct LexerTests {
    @Test("words, numbers, strings, symbols and placeholders carry their line and column")
    func tokensWithPositions() throws {
        let tokens = try Lexer.tokens("select a,\n  b.c from _User where x >= -1.5e3 and y <> ?")
        let summary = tokens.map { "\($0.text)@\($0.position)" }
        #expect(summary == [
            "select@1:1", "a@1:8", ",@1:9", "b@2:3", ".@2:4", "c@2:5", "from@2:7", "_User@2:12", "where@2:18", "x@2:24", ">=@2:26",
            "-@2:29", "1.5e3@2:30", "and@2:36", "y@2:40", "<>@2:42", "?@2:45", "@2:46",
        ])
        #expect(tokens.map(\.kind).suffix(3) == [.symbol, .placeholder, .end])
    }

    @Test(
        "strings resolve escapes and doubled quotes but keep other backslashes for regular expressions",
        arguments: [
            (#"'it''s'"#, "it's"), (#""say \"hi\"""#, #"say "hi""#), (#"'a\nb\tc'"#, "a\nb\tc"), (#"'\d+\.'"#, #"\d+\."#),
            (#"'back\\slash'"#, #"back\slash"#), (#"'\''"#, "'"), ("'多字节'", "多字节"),
        ]
    )
    func stringEscapes(source: String, value: String) throws {
        let token = try Lexer.tokens(source)[0]
        #expect(token.kind == .string)
        #expect(token.text == value)
    }

    @Test("numbers keep their written form; a dot not followed by a digit is a symbol")
    func numbers() throws {
        #expect(try Lexer.tokens("42 3.25 1e-2 7.x").map(\.text) == ["42", "3.25", "1e-2", "7", ".", "x", ""])
    }

    @Test("an unterminated string is reported where its quote opens")
    func unterminatedString() {
        #expect(throws: CloudQueryError(line: 2, column: 3, detail: "unterminated string: a quote ' is missing")) {
            try Lexer.tokens("select\n  'abc")
        }
    }

    @Test("a character that starts no token is reported where it is")
    func unexpectedCharacter() {
        #expect(throws: CloudQueryError(line: 1, column: 10, detail: "unexpected character '#'")) {
            try Lexer.tokens("select * #")
        }
    }
}
