/// A boolean value.
public final class LCBool: LCValue, ExpressibleByBooleanLiteral, Hashable {
    /// The flag.
    public let value: Bool

    public init(_ value: Bool = false) {
        self.value = value
    }

    public convenience init(booleanLiteral value: Bool) {
        self.init(value)
    }

    public var description: String { String(value) }

    public static func == (lhs: LCBool, rhs: LCBool) -> Bool { lhs.value == rhs.value }

    public func hash(into hasher: inout Hasher) { hasher.combine(value) }
}
