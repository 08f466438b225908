/// A value bound to a statement parameter.
package enum SQLValue: Sendable, Hashable, CustomStringConvertible {
    case null
    case int(Int64)
    case double(Double)
    case text(String)
    case blob([UInt8])

    package var description: String {
        switch self {
        case .null: "NULL"
        case .int(let number): String(number)
        case .double(let number): String(number)
        case .text(let text): "'\(text)'"
        case .blob(let bytes): "<\(bytes.count) bytes>"
        }
    }
}

extension SQLValue {
    /// The text of a text value.
    package var text: String? {
        if case .text(let text) = self { return text }
        return nil
    }

    /// The number of an integer value.
    package var integer: Int64? {
        if case .int(let number) = self { return number }
        return nil
    }

    /// The number of a numeric value.
    package var double: Double? {
        switch self {
        case .double(let number): number
        case .int(let number): Double(number)
        default: nil
        }
    }
}
