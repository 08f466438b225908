/// A string value.
public final class LCString: LCValue, ExpressibleByStringLiteral, Hashable {
    /// The text.
    public let value: String

    public init(_ value: String = "") {
        self.value = value
    }

    public convenience init(stringLiteral value: String) {
        self.init(value)
    }

    public var description: String { value }

    public static func == (lhs: LCString, rhs: LCString) -> Bool { lhs.value == rhs.value }

    public func hash(into hasher: inout Hasher) { hasher.combine(value) }
}
