extension SearchTokenizer {
    /// The searchable text of a field's stored value: a string, or an array's strings one per line; other values
    /// (numbers, dates, pointers, …) have none — ranges and `_exists_` reach those.
    public static func text(of value: JSON?) -> String {
        switch value {
        case .string(let text)?: text
        case .array(let items)?: items.compactMap(\.stringValue).joined(separator: "\n")
        default: ""
        }
    }

    /// The tokens of a field's stored value (``text(of:)``).
    public static func tokens(of value: JSON?) -> [SearchToken] {
        tokens(in: text(of: value))
    }
}
