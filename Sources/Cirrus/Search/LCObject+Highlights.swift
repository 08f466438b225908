extension LCObject {
    /// The field of a search result that holds its highlighted fragments.
    static let highlightKey = "_highlight"

    /// The highlighted fragments of an object found by an ``LCSearchQuery`` with ``LCSearchQuery/highlights``, by
    /// field: `["title": ["a <em>swift</em> river"]]`; `nil` for an object without them.
    ///
    /// They are the result's `_highlight` field, which `get("_highlight")` reads too (as LeanCloud's JavaScript SDK
    /// keeps it). Like every field the server sent, it is not saved back unless set.
    public var highlights: [String: [String]]? {
        guard let fragments = get(Self.highlightKey) as? LCDictionary else { return nil }
        return fragments.value.compactMapValues { value in
            if let text = value.stringValue { return [text] }
            return value.arrayValue?.compactMap(\.stringValue)
        }
    }
}
