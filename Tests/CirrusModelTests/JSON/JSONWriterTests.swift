import CirrusModel
import Testing

@Suite("JSONWriter")
struct JSONWriterTests {
    @Test("object keys are written sorted at every level, so equal values give equal text")
    func sortedKeys() {
        let value: JSON = ["b": 1, "a": ["d": 1, "c": [["z": true, "y": nil]]], "B": "x"]
        #expect(JSONWriter.string(value) == #"{"B":"x","a":{"c":[{"y":null,"z":true}],"d":1},"b":1}"#)
    }

    @Test("strings escape quotes, backslashes and control characters and keep other text as UTF-8", arguments: [
        ("plain", #""plain""#),
        ("q\"b\\s/", #""q\"b\\s/""#),
        ("\n\r\t", #""\n\r\t""#),
        ("\u{0}\u{1}\u{8}\u{C}\u{1F}", #""\u0000\u0001\u0008\u000c\u001f""#),
        ("\u{7F}é中😀", "\"\u{7F}é中😀\""),
    ])
    func escaping(_ text: String, _ expected: String) {
        #expect(JSONWriter.string(.string(text)) == expected)
    }

    @Test("numbers: integers as written, doubles in shortest form with .0 kept on whole numbers", arguments: [
        (JSON.int(0), "0"), (.int(-42), "-42"), (.int(.min), "-9223372036854775808"), (.int(.max), "9223372036854775807"),
        (.double(1), "1.0"), (.double(-0.5), "-0.5"), (.double(0.1), "0.1"), (.double(123_456_789), "123456789.0"),
        (.double(1e20), "1e+20"), (.double(1e-7), "1e-07"), (.double(-0.0), "-0.0"),
        (.double(.nan), "null"), (.double(.infinity), "null"), (.double(-.infinity), "null"),
    ])
    func numbers(_ value: JSON, _ expected: String) {
        #expect(JSONWriter.string(value) == expected)
    }

    @Test("literals, empty containers and arrays are compact")
    func compact() {
        #expect(JSONWriter.string([true, false, nil, [], [:]]) == "[true,false,null,[],{}]")
    }

    @Test("bytes and write(into:) give the same text as string")
    func bytes() {
        let value: JSON = ["a": [1, 2.5, "é"]]
        var output = Array("prefix:".utf8)
        JSONWriter.write(value, into: &output)
        #expect(JSONWriter.bytes(value) == Array(JSONWriter.string(value).utf8))
        #expect(output == Array("prefix:".utf8) + JSONWriter.bytes(value))
    }

    @Test("parsing the written text gives back the same value, for generated values", arguments: UInt64(0)..<200)
    func roundTrip(seed: UInt64) throws {
        var generator = SeededGenerator(seed: seed)
        let value = JSONWriterTests.generate(depth: 0, using: &generator)
        let text = JSONWriter.string(value)
        #expect(try JSONParser.parse(text) == value, "\(text)")
        #expect(JSONWriter.string(try JSONParser.parse(text)) == text)
    }

    @Test("a fragment with parts written before gives the text of the whole value, for generated values", arguments: UInt64(0)..<100)
    func fragments(seed: UInt64) {
        var generator = SeededGenerator(seed: seed)
        let value = JSONWriterTests.generate(depth: 0, using: &generator)
        let fragment = JSONWriterTests.split(value, using: &generator)
        #expect(JSONWriter.bytes(fragment) == JSONWriter.bytes(value), "\(JSONWriter.string(value))")
    }

    /// `value` as a fragment whose parts are, at random, values, text written before, or fragments of their own.
    static func split(_ value: JSON, using generator: inout SeededGenerator) -> JSONWriter.Fragment {
        switch (value, Int.random(in: 0..<3, using: &generator)) {
        case (_, 0): return .value(value)
        case (_, 1): return .written(JSONWriter.bytes(value))
        case (.array(let elements), _): return .array(elements.map { split($0, using: &generator) })
        case (.object(let members), _): return .object(members.mapValues { split($0, using: &generator) })
        default: return .value(value)
        }
    }

    /// A random JSON value: finite doubles from raw bits, strings with quotes, escapes and any scalar.
    static func generate(depth: Int, using generator: inout SeededGenerator) -> JSON {
        let kind = Int.random(in: 0..<(depth < 4 ? 9 : 7), using: &generator)
        switch kind {
        case 0: return .null
        case 1: return .bool(Bool.random(using: &generator))
        case 2: return .int(Int64.random(in: .min ... .max, using: &generator))
        case 3: return .int(Int64.random(in: -1000...1000, using: &generator))
        case 4:
            var number = Double(bitPattern: generator.next())
            while !number.isFinite { number = Double(bitPattern: generator.next()) }
            return .double(number)
        case 5: return .double(Double(Int.random(in: -5000...5000, using: &generator)) / 8)
        case 6: return .string(randomString(using: &generator))
        case 7:
            let count = Int.random(in: 0...4, using: &generator)
            return .array((0..<count).map { _ in generate(depth: depth + 1, using: &generator) })
        default:
            let count = Int.random(in: 0...4, using: &generator)
            var members: [String: JSON] = [:]
            for _ in 0..<count { members[randomString(using: &generator)] = generate(depth: depth + 1, using: &generator) }
            return .object(members)
        }
    }

    static func randomString(using generator: inout SeededGenerator) -> String {
        let specials: [Unicode.Scalar] = ["\"", "\\", "/", "\n", "\u{0}", "\u{1F}", "é", "中", "😀", "\u{FFFF}", "\u{10FFFF}"]
        var text = String.UnicodeScalarView()
        for _ in 0..<Int.random(in: 0...8, using: &generator) {
            if Bool.random(using: &generator) {
                text.append(specials.randomElement(using: &generator)!)
            } else if let scalar = Unicode.Scalar(UInt32.random(in: 0...0x10FFFF, using: &generator)) {
                text.append(scalar)
            }
        }
        return String(text)
    }

    @Test("compacting drops the whitespace between tokens and keeps what strings hold", arguments: [
        (#"{"a": 1, "b": [1, 2], "c": {"d": null}}"#, #"{"a":1,"b":[1,2],"c":{"d":null}}"#),
        ("{\n  \"s\": \"a b\\\" c\",\t\"e\": \"\\\\\"\r\n}", #"{"s":"a b\" c","e":"\\"}"#),
        (#"{"x":"y"}"#, #"{"x":"y"}"#),
        ("[ ]", "[]"),
        // PostgreSQL's text of the double 1e+308 and of 1e+20: doubles again, as the parser reads them.
        ("{\"d\": 1" + String(repeating: "0", count: 308) + "}", #"{"d":1e+308}"#),
        ("[100000000000000000000, -100000000000000000000]", "[1e+20,-1e+20]"),
        // Integers that fit in 64 bits, short literals and numbers in strings stay as they are.
        ("[9223372036854775807,-9223372036854775808,1.0,0.00000015,-0]", "[9223372036854775807,-9223372036854775808,1.0,0.00000015,-0]"),
        (#"{"s":"100000000000000000000"}"#, #"{"s":"100000000000000000000"}"#),
    ])
    func compacting(_ text: String, _ expected: String) throws {
        let compact = JSONWriter.compacted(Array(text.utf8))
        #expect(String(decoding: compact, as: UTF8.self) == expected)
        #expect(try JSONParser.parse(compact) == JSONParser.parse(text))
    }
}
