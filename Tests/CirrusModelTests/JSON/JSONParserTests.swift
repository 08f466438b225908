import CirrusModel
import Testing

@Suite("JSONParser")
struct JSONParserTests {
    @Test("valid texts parse to the exact value", arguments: [
        ("0", JSON.int(0)),
        ("-0", .int(0)),
        ("-17", .int(-17)),
        ("9223372036854775807", .int(.max)),
        ("-9223372036854775808", .int(.min)),
        ("9223372036854775808", .double(9_223_372_036_854_775_808)),
        ("-9223372036854775809", .double(-9_223_372_036_854_775_808.0)),
        ("123456789012345678901234567890", .double(1.2345678901234568e29)),
        ("1.0", .double(1.0)),
        ("-0.5", .double(-0.5)),
        ("1e2", .double(100)),
        ("1E+2", .double(100)),
        ("25e-2", .double(0.25)),
        ("1.5e3", .double(1500)),
        ("true", .bool(true)),
        ("false", .bool(false)),
        ("null", .null),
        (#""""#, .string("")),
        (#""héllo""#, .string("héllo")),
        (#""\u00e9\u4e2d""#, .string("é中")),
        (#""\ud83d\ude00""#, .string("😀")),
        (#""\"\\\/\b\f\n\r\t""#, .string("\"\\/\u{08}\u{0C}\n\r\t")),
        (#""a\u0000b""#, .string("a\u{0}b")),
        ("[]", .array([])),
        ("{}", .object([:])),
        (" \t\r\n[ 1 , \"a\" , null ] \n", .array([.int(1), .string("a"), .null])),
        (#"{"a":{"b":[true,{"c":1.5}]}}"#, .object(["a": .object(["b": .array([.bool(true), .object(["c": .double(1.5)])])])])),
        (#"{"a":1,"a":2}"#, .object(["a": .int(2)])),
    ])
    func valid(_ text: String, _ expected: JSON) throws {
        #expect(try JSONParser.parse(text) == expected)
    }

    @Test("invalid texts are refused", arguments: [
        "", " ", "[1,]", #"{"a":1,}"#, "[,1]", "01", "-01", "00", "1.", ".5", "-", "1e", "1e+", "+1", "0x10",
        "NaN", "Infinity", "-Infinity", "1e400", "-1e400", "tru", "nul", "falsey", "True", "[1 2]", #"{"a" 1}"#,
        "{a:1}", #"{"a":1 "b":2}"#, "{'a':1}", "1 2", "[1]]", "[", "{", #""abc"#, #""a\x""#, #""a\u12""#,
        #""\uZZZZ""#, #""\ud83d""#, #""\ud83dx""#, #""\ude00""#, #""\ud83d\u0041""#, "\"a\u{01}b\"", "\"a\nb\"",
        "\"a\tb\"", "[1,\n]", "/* c */ 1",
    ])
    func invalid(_ text: String) {
        #expect(throws: JSONParser.SyntaxError.self) { try JSONParser.parse(text) }
    }

    @Test("text that is not valid UTF-8 is refused")
    func invalidUTF8() {
        #expect(throws: JSONParser.SyntaxError.self) { try JSONParser.parse([0x22, 0xFF, 0x22]) }
        #expect(throws: JSONParser.SyntaxError.self) { try JSONParser.parse([0x22, 0x5C, 0x6E, 0xC3, 0x22]) }
    }

    @Test("a syntax error tells the byte offset where parsing stopped")
    func errorOffset() {
        do {
            _ = try JSONParser.parse("[1,]")
            Issue.record("expected a syntax error")
        } catch {
            #expect(error.offset == 3)
            #expect(error.description.hasSuffix("at byte 3"))
        }
    }

    @Test("nesting is accepted up to the maximum depth and refused beyond it")
    func depthLimit() throws {
        let depth = JSONParser.maximumDepth
        let deepest = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
        #expect(throws: Never.self) { try JSONParser.parse(deepest) }
        let tooDeep = String(repeating: "[", count: depth + 1) + String(repeating: "]", count: depth + 1)
        #expect(throws: JSONParser.SyntaxError.self) { try JSONParser.parse(tooDeep) }
        let objects = String(repeating: #"{"a":"#, count: depth + 1) + "1" + String(repeating: "}", count: depth + 1)
        #expect(throws: JSONParser.SyntaxError.self) { try JSONParser.parse(objects) }
    }

    @Test("siblings do not add up to the depth")
    func siblingsDoNotNest() throws {
        let wide = "[" + Array(repeating: "[[]]", count: JSONParser.maximumDepth * 2).joined(separator: ",") + "]"
        #expect(try JSONParser.parse(wide).arrayValue?.count == JSONParser.maximumDepth * 2)
    }

    @Test("integers stay integers and anything with a fraction or exponent is a double")
    func integersVersusDoubles() throws {
        #expect(try JSONParser.parse("42") == .int(42))
        #expect(try JSONParser.parse("42.0") == .double(42))
        #expect(try JSONParser.parse("42e0") == .double(42))
        #expect(try JSONParser.parse("42") != JSONParser.parse("42.0"))
    }
}
