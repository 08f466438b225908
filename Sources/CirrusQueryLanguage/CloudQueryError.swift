/// Where a CQL or BQL statement is wrong: 1-based line and column, and what was expected.
public struct CloudQueryError: Error, Sendable, Equatable, CustomStringConvertible {
    public var line: Int
    public var column: Int
    public var detail: String

    public init(line: Int, column: Int, detail: String) {
        self.line = line
        self.column = column
        self.detail = detail
    }

    public var description: String { "Parse error at line \(line), column \(column): \(detail)" }
}
