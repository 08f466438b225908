/// A number value. Whole numbers travel as JSON integers (`42`), others as decimals.
public final class LCNumber: LCValue, LCNumberConvertible, ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral, Hashable {
    /// The number.
    public let value: Double

    public init(_ value: Double = 0) {
        self.value = value
    }

    public convenience init(_ value: Int) {
        self.init(Double(value))
    }

    public convenience init(integerLiteral value: Int) {
        self.init(Double(value))
    }

    public convenience init(floatLiteral value: Double) {
        self.init(value)
    }

    public var lcNumber: LCNumber { self }

    public var lcValue: any LCValue { self }

    public var description: String {
        if let whole = Int64(exactly: value) { return String(whole) }
        return String(value)
    }

    public static func == (lhs: LCNumber, rhs: LCNumber) -> Bool { lhs.value == rhs.value }

    public func hash(into hasher: inout Hasher) { hasher.combine(value) }
}
