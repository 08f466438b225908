/// The `null` value.
public final class LCNull: LCValue, ExpressibleByNilLiteral {
    public init() {}

    public convenience init(nilLiteral: ()) {
        self.init()
    }

    public var description: String { "null" }
}
