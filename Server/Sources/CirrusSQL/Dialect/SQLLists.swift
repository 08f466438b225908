import CirrusModel

/// Lists of values in statements: short ones bind a parameter per value, long ones (`$in` with thousands of ids)
/// one JSON array, so that a query stays far within the databases' bounds on parameters.
package enum SQLLists {
    /// The longest list bound value by value.
    package static let inlineLength = 8

    /// The JSON array text of `values` (texts as strings, numbers as numbers).
    static func jsonArray(_ values: [SQLValue]) -> String {
        JSONWriter.string(.array(values.map { value in
            switch value {
            case .text(let text): .string(text)
            case .int(let number): .int(number)
            case .double(let number): .double(number)
            case .null, .blob: .null
            }
        }))
    }

    /// `expression = ?` for one value, `expression IN (?, …)` for a few, `long(array)` for more.
    static func isIn(_ expression: SQLFragment, _ values: [SQLValue], long: (SQLFragment) -> SQLFragment) -> SQLFragment {
        if values.count == 1 { return "\(expression) = \(bind: values[0])" }
        guard values.count > inlineLength else {
            return "\(expression) IN (\(values.map(SQLFragment.bind).joined(separator: ", ")))"
        }
        return long(.bind(.text(jsonArray(values))))
    }
}
