/// A JSON document as it travels on the wire and as it is stored.
///
/// Integers and floating-point numbers are kept apart, so a value written as `42` is read back as `42`,
/// never as `42.0`. Objects are unordered; ``JSONWriter`` writes their keys sorted, which makes the text
/// canonical and comparable byte for byte.
public enum JSON: Sendable, Hashable {
    case null
    case bool(Bool)
    case int(Int64)
    case double(Double)
    case string(String)
    case array([JSON])
    case object([String: JSON])
}

extension JSON {
    /// The member `key` of an object, or `nil` for a missing key or a non-object.
    public subscript(key: String) -> JSON? {
        guard case .object(let members) = self else { return nil }
        return members[key]
    }

    /// The members of an object, or `nil`.
    public var objectValue: [String: JSON]? {
        if case .object(let members) = self { return members }
        return nil
    }

    /// The elements of an array, or `nil`.
    public var arrayValue: [JSON]? {
        if case .array(let elements) = self { return elements }
        return nil
    }

    /// The text of a string, or `nil`.
    public var stringValue: String? {
        if case .string(let text) = self { return text }
        return nil
    }

    /// The value of a boolean, or `nil`.
    public var boolValue: Bool? {
        if case .bool(let flag) = self { return flag }
        return nil
    }

    /// A number as `Double` (integers converted), or `nil`.
    public var doubleValue: Double? {
        switch self {
        case .int(let number): Double(number)
        case .double(let number): number
        default: nil
        }
    }

    /// An integer, or a floating-point number with no fractional part, as `Int64`; otherwise `nil`.
    public var intValue: Int64? {
        switch self {
        case .int(let number): return number
        case .double(let number):
            guard number.rounded() == number, let exact = Int64(exactly: number) else { return nil }
            return exact
        default: return nil
        }
    }

    /// Whether this is `null`.
    public var isNull: Bool {
        if case .null = self { return true }
        return false
    }

    /// Whether this is an integer or a floating-point number.
    public var isNumber: Bool {
        switch self {
        case .int, .double: true
        default: false
        }
    }
}

extension JSON: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral,
    ExpressibleByBooleanLiteral, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral, ExpressibleByNilLiteral
{
    public init(stringLiteral value: String) { self = .string(value) }
    public init(integerLiteral value: Int64) { self = .int(value) }
    public init(floatLiteral value: Double) { self = .double(value) }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(arrayLiteral elements: JSON...) { self = .array(elements) }
    public init(nilLiteral: ()) { self = .null }
    public init(dictionaryLiteral elements: (String, JSON)...) {
        self = .object(Dictionary(elements, uniquingKeysWith: { _, last in last }))
    }
}
