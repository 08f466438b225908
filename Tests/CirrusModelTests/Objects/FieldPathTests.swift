import CirrusModel
import Testing

@Suite("FieldPath")
struct FieldPathTests {
    @Test("dotted keys split into a field and nested segments", arguments: [
        ("a", ["a"]), ("a.b", ["a", "b"]), ("list.0.name", ["list", "0", "name"]), ("a.b c.ü-x", ["a", "b c", "ü-x"]),
        ("a._b", ["a", "_b"]),
    ])
    func parses(_ text: String, _ segments: [String]) throws {
        let path = try FieldPath(parsing: text)
        #expect(path.segments == segments)
        #expect(path.description == text)
        #expect(path.root == segments[0])
        #expect(path.isNested == (segments.count > 1))
    }

    @Test("empty segments, a bad field name or quotes and $ in segments are refused", arguments: [
        "", ".a", "a.", "a..b", "1a.b", "_a.b", "a-b.c", "a.b$", "a.$b", #"a.b"c"#, "a.b'c", #"a.b\c"#, "a.b\u{1}",
    ])
    func refuses(_ text: String) {
        #expect(reason { _ = try FieldPath(parsing: text) } == .invalidKeyName)
    }

    @Test("a path is within itself and its ancestors only")
    func within() throws {
        let path = try FieldPath(parsing: "a.b.c")
        #expect(path.isWithin(FieldPath(field: "a")))
        #expect(path.isWithin(try FieldPath(parsing: "a.b")))
        #expect(path.isWithin(path))
        #expect(!path.isWithin(try FieldPath(parsing: "a.b.c.d")))
        #expect(!path.isWithin(FieldPath(field: "ab")))
        #expect(!FieldPath(field: "a").isWithin(path))
    }

    @Test("segments of up to nine digits can index arrays", arguments: [
        ("0", true), ("12", true), ("123456789", true), ("1234567890", false), ("", false), ("1a", false), ("-1", false),
    ])
    func indexes(_ segment: String, _ isIndex: Bool) {
        #expect(FieldPath.isIndex(segment) == isIndex)
    }
}
