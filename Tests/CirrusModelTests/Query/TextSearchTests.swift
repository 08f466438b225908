import CirrusModel
import Testing

@Suite("Parse's $text condition")
struct TextSearchTests {
    static let subject = FieldPath(field: "subject")

    static func condition(_ term: String, language: String? = nil) throws -> Condition {
        var search: [String: JSON] = ["$term": .string(term)]
        if let language { search["$language"] = .string(language) }
        return try Condition(where: ["subject": ["$text": ["$search": .object(search)]]])
    }

    static func matches(_ condition: Condition, _ subject: String) -> Bool {
        let object = ConditionSubject(
            className: "TestObject", objectId: "o", createdAt: Timestamp(millisecondsSince1970: 0), updatedAt: Timestamp(millisecondsSince1970: 0),
            fields: ["subject": .string(subject)]
        )
        return condition.matches(object)
    }

    /// Parse Server's full-text fixtures (spec/ParseQuery.FullTextSearch.spec.js) and CJK text.
    static let subjects = [
        "coffee", "Coffee Shopping", "Baking a cake", "baking", "Café Con Leche", "Сырники", "coffee and cream", "Cafe con Leche", "冰咖啡很好喝",
    ]

    @Test("a $term is read as MongoDB reads one: any word, every phrase, no excluded part; folded, CJK by bigrams", arguments: [
        ("coffee", ["coffee", "Coffee Shopping", "coffee and cream"]),
        ("leche", ["Café Con Leche", "Cafe con Leche"]),
        ("CAFÉ", ["Café Con Leche", "Cafe con Leche"]),
        ("baking cake", ["Baking a cake", "baking"]),
        ("\"coffee and\"", ["coffee and cream"]),
        ("\"coffee and\" shopping", ["coffee and cream"]),
        ("coffee -cream", ["coffee", "Coffee Shopping"]),
        ("coffee -\"coffee shopping\"", ["coffee", "coffee and cream"]),
        ("сырники", ["Сырники"]),
        ("咖啡", ["冰咖啡很好喝"]),
        ("咖", ["冰咖啡很好喝"]),
        ("bake", []),
        ("coffee & , tea", ["coffee", "Coffee Shopping", "coffee and cream"]),
    ])
    func matching(_ term: String, _ expected: [String]) throws {
        let condition = try Self.condition(term)
        #expect(Self.subjects.filter { Self.matches(condition, $0) } == expected)
    }

    @Test("the condition is written back as it was sent, and $language is kept")
    func wire() throws {
        let condition = try Self.condition("leche -cafe", language: "spanish")
        #expect(condition.wire == ["subject": ["$text": ["$search": ["$term": "leche -cafe", "$language": "spanish"]]]])
        #expect(try Condition(where: condition.wire) == condition)
        guard case .text(_, let search) = condition else { Issue.record("not a $text condition: \(condition)"); return }
        #expect(search.language == "spanish")
        #expect(search.rankedTerms.map(\.text) == ["leche"])
        #expect(condition.rankedTextTerms.map(\.text) == ["leche"])
    }

    @Test("malformed operands are refused as Parse refuses them (INVALID_JSON), and a search with nothing to find too", arguments: [
        ["$search": true] as JSON,
        ["$search": ["$term": true]],
        ["$search": ["$term": "leche", "$language": true]],
        ["$search": ["$term": "Coffee", "$caseSensitive": "string"]],
        ["$search": ["$term": "CAFÉ", "$diacriticSensitive": "string"]],
        ["$search": ["$term": "Coffee", "$caseSensitive": true]],
        ["$search": ["$term": "CAFÉ", "$diacriticSensitive": true]],
        ["$search": ["$term": "coffee", "$unknown": 1]],
        ["$search": ["$term": "\"coffee"]],
        ["$search": ["$term": "-coffee"]],
        ["$search": ["$term": "&&"]],
        ["$search": ["$term": "coffee"], "$other": 1],
        "coffee",
    ])
    func refused(_ operand: JSON) {
        #expect {
            try Condition(where: ["subject": ["$text": operand]])
        } throws: { error in
            (error as? APIError)?.reason == .invalidJSON
        }
    }

    @Test("$caseSensitive and $diacriticSensitive false are accepted (the index folds both)")
    func foldedFlags() throws {
        let condition = try Condition(where: ["subject": ["$text": ["$search": ["$term": "CAFÉ", "$caseSensitive": false, "$diacriticSensitive": false]]]])
        #expect(Self.matches(condition, "cafe con leche"))
    }

    @Test("a $term beyond the limits is refused as too complex")
    func limits() {
        let many = (0...TextSearch.maximumParts).map { "w\($0)" }.joined(separator: " ")
        let long = String(repeating: "a", count: SearchQueryParser.maximumLength + 1)
        for term in [many, long] {
            #expect {
                try Self.condition(term)
            } throws: { error in
                (error as? APIError)?.reason == .queryTooComplex
            }
        }
    }

    @Test("a $text needs its field among the search fields of its class, sub-queries' classes included")
    func searchable() throws {
        let indexed = ClassSchema(className: "TestObject", fields: ["subject": .string], options: ClassOptions(searchFields: ["subject"]))
        let plain = ClassSchema(className: "Other", fields: ["subject": .string])
        let schemas = ["TestObject": indexed, "Other": plain]
        try Self.condition("coffee").checkTextSearchable(in: "TestObject") { schemas[$0] }
        #expect(throws: APIError.self) { try Self.condition("coffee").checkTextSearchable(in: "Other") { schemas[$0] } }
        let inner = Condition.inQuery(FieldPath(field: "other"), SubQuery(className: "Other", condition: try Self.condition("coffee")), negated: false)
        #expect(throws: APIError.self) { try inner.checkTextSearchable(in: "TestObject") { schemas[$0] } }
        try inner.checkTextSearchable(in: "TestObject") { $0 == "Other" ? nil : schemas[$0] }
        let nested = try Condition(where: ["subject.en": ["$text": ["$search": ["$term": "coffee"]]]])
        #expect(throws: APIError.self) { try nested.checkTextSearchable(in: "TestObject") { schemas[$0] } }
    }

    @Test("$score sorts and selects the relevance: order and keys name it, not a field")
    func score() throws {
        #expect(try SortKey.parseList("$score,-createdAt") == [SortKey(path: .textScore), SortKey(path: FieldPath(field: "createdAt"), descending: true)])
        #expect(try SortKey.parseList("-$score") == [SortKey(path: .textScore, descending: true)])
        let keys = try KeySelection(parsing: "$score,title")
        #expect(keys.includesTextScore && keys.included == [FieldPath(field: "score"), FieldPath(field: "title")])
        #expect(try !KeySelection(parsing: "title").includesTextScore)
    }
}
