/// Evaluates search terms against tokenized text in memory, as the stores' FTS5 and `tsquery` matching does: a
/// term's tokens must appear at consecutive positions, each equal to the document's token or, for a prefix, starting
/// it (compared byte for byte, as the stores compare).
///
/// The highlighter finds its spans with it, and the server can decide LiveQuery subscriptions on a search with it.
/// Ranges and `_exists_` depend on the stored object, not on text: the caller decides them.
public enum SearchMatcher {
    /// The indexes into `document` at which `phrase` starts, in order.
    public static func occurrences(of phrase: [SearchQueryToken], in document: [SearchToken]) -> [Int] {
        guard !phrase.isEmpty, phrase.count <= document.count else { return [] }
        return (0...(document.count - phrase.count)).filter { isOccurrence(of: phrase, in: document, at: $0) }
    }

    /// Whether `document` (the tokens of one value) holds `term`.
    public static func matches(_ term: SearchTerm, in document: [SearchToken]) -> Bool {
        guard !term.tokens.isEmpty, term.tokens.count <= document.count else { return false }
        return (0...(document.count - term.tokens.count)).contains { isOccurrence(of: term.tokens, in: document, at: $0) }
    }

    /// Whether `query` matches a document whose searchable fields have the tokens of `fields`.
    ///
    /// A term naming a field looks at that field only; a term naming none at every field of `fields` (a phrase must
    /// lie within one field). `other` decides ranges and `_exists_`.
    public static func matches(
        _ query: SearchQuery, fields: [FieldPath: [SearchToken]], other: (SearchLeaf) -> Bool
    ) -> Bool {
        query.evaluate { leaf in
            guard case .term(let term) = leaf else { return other(leaf) }
            if let field = term.field { return fields[field].map { matches(term, in: $0) } ?? false }
            return fields.values.contains { matches(term, in: $0) }
        }
    }

    /// Whether `phrase` matches the tokens from `start` on, at consecutive positions.
    static func isOccurrence(of phrase: [SearchQueryToken], in document: [SearchToken], at start: Int) -> Bool {
        let first = document[start].position
        for (offset, token) in phrase.enumerated() {
            let candidate = document[start + offset]
            guard candidate.position == first + offset, token.matches(candidate.text) else { return false }
        }
        return true
    }
}
