extension SearchTokenizer {
    /// The tokens of a field's stored value: a string's, or an array's strings' one after the other; other values
    /// (numbers, dates, pointers, …) have none — ranges and `_exists_` reach those.
    public static func tokens(of value: JSON?) -> [SearchToken] {
        switch value {
        case .string(let text)?: tokens(in: text)
        case .array(let items)?: tokens(in: items.compactMap(\.stringValue).joined(separator: "\n"))
        default: []
        }
    }
}
