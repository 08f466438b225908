extension Array where Element == SQLFragment {
    /// The fragments combined with `op` (`AND`, `OR`) in parentheses: `(a OR b OR c)`. Long lists are
    /// nested as a balanced tree, `((a OR b) OR (c OR d))`, so that a condition over thousands of values stays
    /// within SQL's expression depth limit (1000 in SQLite). Callers handle the empty list.
    package func combined(_ op: String) -> SQLFragment {
        let separator = " \(op) "
        guard count > 64 else { return SQLFragment("(") + joined(separator: separator) + SQLFragment(")") }
        let middle = count / 2
        let halves: [SQLFragment] = [Array(self[..<middle]).combined(op), Array(self[middle...]).combined(op)]
        return SQLFragment("(") + halves.joined(separator: separator) + SQLFragment(")")
    }
}
