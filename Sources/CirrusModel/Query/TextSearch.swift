/// Parse's full-text condition on one field, the `$search` of
/// `{"field": {"$text": {"$search": {"$term": "…", "$language": "…", "$caseSensitive": false, "$diacriticSensitive": false}}}}`.
///
/// `$term` is read as MongoDB reads a `$text` search string: words separated by spaces, any of which matches
/// (`coffee tea`); phrases in double quotes, all of which must match (`"iced coffee"`), the words then only rank; and
/// words or phrases after a `-`, which must not match (`coffee -decaf`). Each word and phrase is tokenized as the search
/// index is (``SearchTokenizer``: case and diacritics folded, CJK runs as bigrams), so `咖啡` finds `冰咖啡`. Nothing
/// is stemmed: `$language` is accepted and kept, but `bake` does not find `baking` as MongoDB's English stemmer would.
/// `$caseSensitive: true` and `$diacriticSensitive: true` are refused: the index folds both away.
public struct TextSearch: Sendable, Hashable {
    /// `$term` as sent.
    public var term: String
    /// `$language` as sent.
    public var language: String?
    /// The words any of which matches (when there is no phrase), each a term on the field.
    public var words: [SearchTerm]
    /// The phrases all of which match.
    public var phrases: [SearchTerm]
    /// The words and phrases none of which may match.
    public var excluded: [SearchTerm]

    /// The most words and phrases a `$term` may hold (``SearchQueryParser/maximumClauses``).
    public static var maximumParts: Int { SearchQueryParser.maximumClauses }

    /// Reads `$term` as a search of `field`.
    /// - Throws: ``APIError/Reason/invalidJSON`` for an unbalanced quote or a term with nothing to search for (only
    ///   punctuation, or only excluded words); ``APIError/Reason/queryTooComplex`` beyond ``maximumParts`` parts or
    ///   ``SearchQueryParser/maximumLength`` characters.
    public init(field: FieldPath, term: String, language: String? = nil) throws(APIError) {
        guard term.utf8.count <= SearchQueryParser.maximumLength * 4, term.count <= SearchQueryParser.maximumLength else {
            throw APIError(.queryTooComplex, "Query too complex: $term is longer than \(SearchQueryParser.maximumLength) characters.")
        }
        self.term = term
        self.language = language
        words = []
        phrases = []
        excluded = []
        for part in try Self.parts(of: term) {
            let tokens = SearchTokenizer.queryTokens(in: part.text, prefix: false)
            guard !tokens.isEmpty else { continue }
            let searched = SearchTerm(field: field, text: part.text, tokens: tokens, isQuoted: part.isPhrase)
            if part.isExcluded { excluded.append(searched) } else if part.isPhrase { phrases.append(searched) } else { words.append(searched) }
        }
        guard words.count + phrases.count + excluded.count <= Self.maximumParts else {
            throw APIError(.queryTooComplex, "Query too complex: $term has more than \(Self.maximumParts) words and phrases.")
        }
        guard !words.isEmpty || !phrases.isEmpty else {
            throw APIError(.invalidJSON, "Invalid $text: $term '\(term)' has no word to search for that is not excluded.")
        }
    }

    /// The condition on the field's text: every phrase (or, without one, any word), and no excluded part.
    public var query: SearchQuery {
        let required: SearchQuery = phrases.isEmpty ? .or(words.map { .leaf(.term($0)) }) : .and(phrases.map { .leaf(.term($0)) })
        guard !excluded.isEmpty else { return required }
        return .and([required] + excluded.map { .not(.leaf(.term($0))) })
    }

    /// The terms a match's score counts: the phrases and the words.
    public var rankedTerms: [SearchTerm] { phrases + words }

    /// `{"$search": {"$term": …, "$language": …}}`.
    public var wire: JSON {
        var search: [String: JSON] = ["$term": .string(term)]
        if let language { search["$language"] = .string(language) }
        return ["$search": .object(search)]
    }

    /// Decodes the operand of `$text` on `field`.
    /// - Throws: ``APIError/Reason/invalidJSON`` for a malformed operand, as Parse does.
    public init(field: FieldPath, operand json: JSON) throws(APIError) {
        func invalid(_ detail: String) -> APIError { APIError(.invalidJSON, "Invalid $text on '\(field)': \(detail).") }
        guard case .object(let text) = json, text.count == 1, case .object(let search)? = text["$search"] else {
            throw invalid("it needs {\"$search\": {\"$term\": \"…\"}}")
        }
        for key in search.keys where !["$term", "$language", "$caseSensitive", "$diacriticSensitive"].contains(key) {
            throw invalid("$search does not take \(key)")
        }
        guard case .string(let term)? = search["$term"] else { throw invalid("$term needs a string") }
        var language: String?
        if let value = search["$language"] {
            guard case .string(let name) = value else { throw invalid("$language needs a string") }
            language = name
        }
        for flag in ["$caseSensitive", "$diacriticSensitive"] {
            guard let value = search[flag] else { continue }
            guard case .bool(let on) = value else { throw invalid("\(flag) needs true or false") }
            guard !on else { throw invalid("\(flag): true is not supported: the search index folds case and diacritics") }
        }
        try self.init(field: field, term: term, language: language)
    }

    /// One word or phrase of `$term`.
    private struct Part {
        var text: String
        var isPhrase: Bool
        var isExcluded: Bool
    }

    /// Splits `$term` at spaces outside quotes; `-` before a word or phrase excludes it.
    private static func parts(of term: String) throws(APIError) -> [Part] {
        var parts: [Part] = []
        var characters = term[...]
        while let first = characters.first {
            if first.isWhitespace {
                characters.removeFirst()
                continue
            }
            var isExcluded = false
            if first == "-", let next = characters.dropFirst().first, !next.isWhitespace {
                isExcluded = true
                characters.removeFirst()
            }
            if characters.first == "\"" {
                characters.removeFirst()
                guard let close = characters.firstIndex(of: "\"") else {
                    throw APIError(.invalidJSON, "Invalid $text: $term '\(term)' has a quote that is not closed.")
                }
                parts.append(Part(text: String(characters[..<close]), isPhrase: true, isExcluded: isExcluded))
                characters = characters[characters.index(after: close)...]
            } else {
                let end = characters.firstIndex { $0.isWhitespace || $0 == "\"" } ?? characters.endIndex
                parts.append(Part(text: String(characters[..<end]), isPhrase: false, isExcluded: isExcluded))
                characters = characters[end...]
            }
            guard parts.count <= maximumParts else {
                throw APIError(.queryTooComplex, "Query too complex: $term has more than \(maximumParts) words and phrases.")
            }
        }
        return parts
    }
}

extension Condition {
    /// The terms `$score` ranks by: those of the `$text` conditions of this class (not in sub-queries, not negated by
    /// `$nor`). Empty when the condition has none.
    public var rankedTextTerms: [SearchTerm] {
        switch self {
        case .and(let parts), .or(let parts): parts.flatMap(\.rankedTextTerms)
        case .text(_, let search): search.rankedTerms
        default: []
        }
    }

    /// Refuses a `$text` condition a store cannot answer: one on a field that is not a search field of its class
    /// (`schemaOf` gives a class's recorded schema; sub-queries search their own class). Classes without a schema do not
    /// exist and so find nothing: their conditions pass.
    /// - Throws: ``APIError/Reason/invalidQuery`` naming the field and how to make it searchable.
    public func checkTextSearchable(in className: String, schemaOf: (String) -> ClassSchema?) throws(APIError) {
        switch self {
        case .and(let parts), .or(let parts), .nor(let parts):
            for part in parts { try part.checkTextSearchable(in: className, schemaOf: schemaOf) }
        case .inQuery(_, let query, _), .select(_, let query, _, _):
            try query.condition.checkTextSearchable(in: query.className, schemaOf: schemaOf)
        case .text(let path, _):
            guard let schema = schemaOf(className) else { return }
            guard !path.isNested, schema.options.searchFields?.contains(path.root) == true else {
                throw APIError(
                    .invalidQuery,
                    "$text on '\(path)' needs '\(path)' among the search fields of \(className) (the schema API's \"search\": {\"fields\": [...]}, or cirrus search \(className) \(path.root))."
                )
            }
        default:
            return
        }
    }

    /// Whether the condition holds a `$text` condition of this class (not in a sub-query).
    public var hasTextSearch: Bool {
        switch self {
        case .and(let parts), .or(let parts), .nor(let parts): parts.contains(where: \.hasTextSearch)
        case .text: true
        default: false
        }
    }
}
