import CirrusModel
import CirrusStorage

/// `$regex` with PCRE features and MongoDB options, evaluated by the store.
extension StorageConformance {
    static var regexChecks: [StorageCheck] {
        [
            StorageCheck("regex supports \\Q…\\E quoting, lookahead and the options i, m, s and x", regexTable),
        ]
    }

    /// Patterns, options and the ids they select among the `Text` objects of ``regexTable(_:)``.
    static let regexCases: [(pattern: String, options: String, field: String, ids: [String])] = [
        ("^Hello", "", "body", ["r1"]),
        ("^hello", "i", "body", ["r1", "r2"]),
        ("WORLD$", "i", "body", ["r1", "r2"]),
        ("a.b", "", "body", ["r4", "r5"]),
        ("\\Qa.b\\E", "", "body", ["r4"]),
        ("^\\QA.B\\E", "i", "body", ["r4"]),
        ("\\Q(x)*\\E", "", "body", ["r8"]),
        ("^(?=.*foo)(?=.*bar)", "", "body", ["r6", "r7"]),
        ("^(?!hello)", "i", "body", ["r3", "r4", "r5", "r6", "r7", "r8", "r9"]),
        ("foo(?= bar)", "", "body", ["r6"]),
        ("^line two", "", "body", []),
        ("^line two", "m", "body", ["r3"]),
        ("one.line", "", "body", []),
        ("one.line", "s", "body", ["r3"]),
        ("one$", "m", "body", ["r3"]),
        ("hel lo  # a comment", "x", "body", ["r2"]),
        ("HEL LO # case-insensitive too", "ix", "body", ["r1", "r2"]),
        ("^été", "", "body", ["r9"]),
        ("^ban", "i", "words", ["r1"]),
        ("^cherry$", "", "words", ["r2"]),
        ("^r[12]$", "", "objectId", ["r1", "r2"]),
        ("1", "", "number", []),
    ]

    static func regexTable(_ driver: StorageConformanceDriver) async throws {
        let texts: [(String, JSON)] = [
            ("r1", ["body": "Hello World", "words": ["apple", "Banana"], "number": 1]),
            ("r2", ["body": "hello world", "words": ["cherry"]]),
            ("r3", ["body": "line one\nline two"]),
            ("r4", ["body": "a.b.c"]),
            ("r5", ["body": "axbxc"]),
            ("r6", ["body": "foo bar baz"]),
            ("r7", ["body": "bar then foo"]),
            ("r8", ["body": "literal (x)* here"]),
            ("r9", ["body": "été"]),
        ]
        for (id, fields) in texts { try await driver.insert("Text", fields, id: id) }
        for choice in [StorageConformanceDriver.SchemaChoice.current, .none] {
            let label = if case .none = choice { "without schema" } else { "with schema" }
            for (pattern, options, field, expected) in regexCases {
                let condition = Condition.regex(FieldPath(field: field), pattern: pattern, options: options)
                let found = try await driver.findIds("Text", condition, schema: choice)
                try verifyEqual(found.sorted(), expected, "/\(pattern)/\(options) on \(field) (\(label))")
                let negated = try await driver.findIds("Text", .nor([condition]), schema: choice)
                try verifyEqual(negated.count, texts.count - expected.count, "the objects not matching /\(pattern)/\(options) (\(label))")
            }
        }
    }
}
