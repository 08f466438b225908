/// A 1-based line and column in a statement, counted in Unicode scalars.
package struct SourcePosition: Sendable, Hashable, CustomStringConvertible {
    package var line: Int
    package var column: Int

    package init(line: Int, column: Int) {
        self.line = line
        self.column = column
    }

    package var description: String { "\(line):\(column)" }
}

/// One lexical unit of a statement.
struct Token: Sendable, Hashable {
    enum Kind: Sendable, Hashable {
        /// A name or keyword (`select`, `GameScore`, `_User`); keywords are recognised by the parser, without
        /// regard to case.
        case word
        /// A number as written (`42`, `-` is a separate symbol, `1.5e3`).
        case number
        /// A quoted string, with its escapes resolved.
        case string
        /// Punctuation or an operator: `( ) [ ] { } , . * : + - = != <> < <= > >=`.
        case symbol
        /// `?`.
        case placeholder
        /// The end of the statement.
        case end
    }

    var kind: Kind
    /// The word, the number as written, the string's value or the symbol.
    var text: String
    var position: SourcePosition

    /// Whether this is the keyword `keyword` (compared without regard to case).
    func isKeyword(_ keyword: String) -> Bool {
        kind == .word && text.lowercased() == keyword
    }

    /// Whether this is the symbol `symbol`.
    func isSymbol(_ symbol: String) -> Bool {
        kind == .symbol && text == symbol
    }

    /// How an error message names this token.
    var quoted: String {
        kind == .end ? "the end of the statement" : "'\(text)'"
    }
}
