/// A word, phrase or prefix of a search query: the tokens a field's tokens must hold at consecutive positions.
///
/// Every term is a phrase of its tokens. A quoted phrase (`"hello world"`), a word that tokenizes to several tokens
/// (`hello-world` → `hello`, `world`) and a CJK run (`世界` → `世界`, `界*`) all match only where their tokens are
/// consecutive. (Elasticsearch would make `hello-world` `hello OR world` unless `auto_generate_phrase_queries` is set;
/// a phrase is what its analyzer for CJK does, and what a user means.)
public struct SearchTerm: Sendable, Hashable {
    /// The field to search (a dotted path such as `avatar.url`); `nil` searches every searchable field.
    public var field: FieldPath?
    /// The text as written, escapes resolved, without quotes or the trailing `*`: for errors and highlighting.
    public var text: String
    /// The phrase: never empty.
    public var tokens: [SearchQueryToken]
    /// Whether the term was written in quotes.
    public var isQuoted: Bool

    public init(field: FieldPath?, text: String, tokens: [SearchQueryToken], isQuoted: Bool = false) {
        self.field = field
        self.text = text
        self.tokens = tokens
        self.isQuoted = isQuoted
    }

    /// The term that searches `field` for `text`, tokenized by ``SearchTokenizer/queryTokens(in:prefix:)``.
    /// - Throws: ``APIError`` with reason ``APIError/Reason/invalidQuery`` when `text` holds no token (only
    ///   punctuation, say).
    public init(field: FieldPath? = nil, text: String, prefix: Bool = false, isQuoted: Bool = false) throws(APIError) {
        let tokens = SearchTokenizer.queryTokens(in: text, prefix: prefix)
        guard !tokens.isEmpty else {
            throw APIError(
                .invalidQuery, "Invalid search query: '\(text)' has nothing to search for (only spaces, punctuation or symbols).")
        }
        self.init(field: field, text: text, tokens: tokens, isQuoted: isQuoted)
    }

    /// The FTS5 phrase that matches the term, without a column filter (the caller maps ``field`` to a column):
    /// each token quoted, a prefix followed by `*`, joined by `+` (`"世界" + "界"*`).
    public var fts5Phrase: String {
        tokens.map { "\"" + $0.text + "\"" + ($0.isPrefix ? "*" : "") }.joined(separator: " + ")
    }

    /// The PostgreSQL `tsquery` literal that matches the term: each token quoted, a prefix followed by `:*`, joined by
    /// `<->` (`'世界' <-> '界':*`; one token alone is `'hello'`).
    public var tsquery: String {
        tokens.map { "'" + $0.text + "'" + ($0.isPrefix ? ":*" : "") }.joined(separator: " <-> ")
    }
}
