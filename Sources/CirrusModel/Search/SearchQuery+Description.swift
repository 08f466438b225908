/// A compact, unambiguous form of a parsed query, for logs and tests: `AND(title:<世界 界*>, NOT(<hello>))`,
/// `price:[10.0 TO *}`, `_exists_:title`, `*`.
extension SearchQuery: CustomStringConvertible {
    public var description: String {
        switch self {
        case .all: "*"
        case .leaf(let leaf): leaf.description
        case .not(let query): "NOT(\(query))"
        case .and(let queries): "AND(" + queries.map(\.description).joined(separator: ", ") + ")"
        case .or(let queries): "OR(" + queries.map(\.description).joined(separator: ", ") + ")"
        }
    }
}

extension SearchLeaf: CustomStringConvertible {
    /// A term as `field:<token token*>`, a range with `[`/`]` for inclusive and `{`/`}` for exclusive or open ends.
    public var description: String {
        switch self {
        case .term(let term):
            return (term.field.map { "\($0):" } ?? "") + "<" + term.tokens.map(\.description).joined(separator: " ") + ">"
        case .range(let range):
            let lower = range.lower.map { ($0.isInclusive ? "[" : "{") + $0.value.description } ?? "{*"
            let upper = range.upper.map { $0.value.description + ($0.isInclusive ? "]" : "}") } ?? "*}"
            return "\(range.field):\(lower) TO \(upper)"
        case .exists(let field):
            return "_exists_:\(field)"
        }
    }
}

extension SearchRangeValue: CustomStringConvertible {
    /// A number as Swift prints a `Double`, a date in ISO 8601 (UTC, milliseconds).
    public var description: String {
        switch self {
        case .number(let number): "\(number)"
        case .date(let timestamp): timestamp.iso8601
        }
    }
}
