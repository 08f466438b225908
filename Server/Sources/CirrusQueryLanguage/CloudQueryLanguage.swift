/// The two dialects of the statement language: LeanCloud's CQL and Bmob's BQL, which adds statistics
/// (`group by`, `having`, `groupcount`, `sum`, `average`, `max`, `min`).
package enum CloudQueryLanguage: String, Sendable, Hashable, CaseIterable {
    case cql
    case bql

    /// `CQL` or `BQL`, as error messages name the language.
    package var name: String { rawValue.uppercased() }

    /// Whether statistics are part of the language.
    package var hasStatistics: Bool { self == .bql }

    /// The longest statement accepted, in UTF-8 bytes, as LeanCloud documents.
    package static let maximumStatementBytes = 4096

    /// Parses one statement.
    /// - Throws: ``CloudQueryError`` for a statement over ``maximumStatementBytes`` (at the first character
    ///   past the limit), a lexical or a syntax error.
    package func parse(_ source: String) throws(CloudQueryError) -> ParsedStatement {
        try Self.checkLength(source)
        return try Parser.parse(source, language: self)
    }

    private static func checkLength(_ source: String) throws(CloudQueryError) {
        let size = source.utf8.count
        guard size > maximumStatementBytes else { return }
        var bytes = 0
        var line = 1
        var column = 1
        for scalar in source.unicodeScalars {
            bytes += String(scalar).utf8.count
            if bytes > maximumStatementBytes { break }
            if scalar == "\n" {
                line += 1
                column = 1
            } else {
                column += 1
            }
        }
        throw CloudQueryError(
            line: line, column: column, detail: "the statement is \(size) bytes long; at most \(maximumStatementBytes) are allowed"
        )
    }
}
