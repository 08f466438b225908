/// Where a CQL or BQL statement is wrong: 1-based line and column, and what was expected.
package struct CloudQueryError: Error, Sendable, Equatable, CustomStringConvertible {
    package var line: Int
    package var column: Int
    /// One line saying what is wrong.
    package var detail: String
    /// For a syntax error, the tokens that would have been accepted at the position (`from`, `,`).
    package var expected: [String]

    package init(line: Int, column: Int, detail: String, expected: [String] = []) {
        self.line = line
        self.column = column
        self.detail = detail
        self.expected = expected
    }

    /// An error at a position in the statement.
    init(at position: SourcePosition, _ detail: String, expected: [String] = []) {
        self.init(line: position.line, column: position.column, detail: detail, expected: expected)
    }

    package var description: String { "Parse error at line \(line), column \(column): \(detail)" }

    /// The report LeanCloud gives: the position, the offending line with a caret under the column, and the
    /// accepted tokens one per line (or the detail when nothing in particular was expected).
    ///
    /// ```
    /// Parse error at line 1, column 10:
    /// select * GameScore limit 10
    ///          ^
    /// Expected one of:
    /// from
    /// ,
    /// ```
    package func report(for source: String) -> String {
        // Lines as the lexer counts them: ended by a `\n` scalar, also inside a `\r\n` (one Character).
        let lines = source.unicodeScalars.split(separator: "\n", omittingEmptySubsequences: false)
        let text = line >= 1 && line <= lines.count ? String(String.UnicodeScalarView(lines[line - 1])) : ""
        let caret = String(repeating: " ", count: max(column - 1, 0)) + "^"
        var report = "Parse error at line \(line), column \(column):\n\(text)\n\(caret)\n"
        if expected.isEmpty {
            report += detail + "\n"
        } else {
            report += "Expected one of:\n" + expected.map { $0 + "\n" }.joined()
        }
        return report
    }
}
