import CirrusModel
import Testing

@Suite("RegexPattern")
struct RegexPatternTests {
    @Test("patterns match with Mongo options", arguments: [
        ("apple", "^a", "", true),
        ("Banana", "^b", "", false),
        ("Banana", "^b", "i", true),
        ("a\nb", "a.b", "", false),
        ("a\nb", "a.b", "s", true),
        ("a\nb", "^b$", "", false),
        ("a\nb", "^b$", "m", true),
        ("banana", "an a", "x", true),
        ("a.b", #"\Qa.b\E"#, "", true),
        ("axb", #"^\Qa.b\E$"#, "", false),
        ("cherry", #"^(?=c)\w+$"#, "", true),
        ("中文", "文$", "", true),
    ])
    func matches(_ text: String, _ pattern: String, _ options: String, _ expected: Bool) throws {
        #expect(try RegexPattern.matches(text, pattern: pattern, options: options) == expected)
    }

    @Test("patterns that do not compile are invalid queries", arguments: ["(", "[a-", "a{2,1}", #"\"#, "*a"])
    func invalid(_ pattern: String) {
        #expect(reason { try RegexPattern.validate(pattern, options: "") } == .invalidQuery)
        #expect(reason { _ = try RegexPattern.matches("a", pattern: pattern, options: "") } == .invalidQuery)
    }

    @Test(
        "inline options are valid at a pattern's start only, where every store reads them; groups, lookarounds, escapes and classes are not options",
        arguments: [
            ("(?i)^b", true), ("(?i)(?s)a.b", true), ("(?:ab)+", true), ("a(?=b)", true), ("a(?!b)", true), ("(?<=a)b", true),
            (#"a\(?i\)"#, true), ("a[(?i)]", true), (#"\Q(?i)\E"#, true), ("a(?i)b", false), ("a(?i:b)", false), ("(a)(?-i)b", false),
            ("(?i)a(?s)b", false),
        ])
    func inlineOptions(_ pattern: String, _ valid: Bool) {
        #expect((reason { try RegexPattern.validate(pattern, options: "") } == nil) == valid)
    }

    @Test("the leading inline options are taken off a pattern with their letters")
    func leadingOptions() {
        #expect(RegexPattern.leadingOptions("(?i)(?ms)^a") == ("ims", "^a"))
        #expect(RegexPattern.leadingOptions("(?:a)") == ("", "(?:a)"))
        #expect(RegexPattern.leadingOptions("a(?i)") == ("", "a(?i)"))
    }
}
