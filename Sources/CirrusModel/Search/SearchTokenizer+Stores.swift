extension SearchTokenizer {
    /// The text FTS5 indexes for a value: its tokens joined by single spaces.
    ///
    /// A token holds only letters, digits and marks, so FTS5 reads the same tokens back: with
    /// `tokenize = 'ascii'` verbatim (every non-ASCII character is a token character, and the ASCII ones are
    /// `a`–`z`, `0`–`9`); with `unicode61`, also split at characters its Unicode tables do not count as letters,
    /// which then happens alike to documents and queries.
    public static func fts5Text(_ tokens: [SearchToken]) -> String {
        tokens.map(\.text).joined(separator: " ")
    }

    /// A PostgreSQL `tsvector` literal for a value: each distinct token once, quoted, with its positions
    /// (`'世界':1 '界':2,5`), in order of first appearance (PostgreSQL sorts lexemes itself).
    ///
    /// A token never holds `'` or `\`, so quoting needs no escapes. PostgreSQL keeps at most 256 positions of one
    /// lexeme and drops the rest when it reads the literal.
    public static func tsvector(_ tokens: [SearchToken]) -> String {
        var order: [String] = []
        var positions: [String: [Int]] = [:]
        for token in tokens {
            if positions[token.text] == nil { order.append(token.text) }
            positions[token.text, default: []].append(token.position)
        }
        return order.map { text in
            "'" + text + "':" + (positions[text] ?? []).map(String.init).joined(separator: ",")
        }.joined(separator: " ")
    }
}
