/// An array value.
public final class LCArray: LCValue, ExpressibleByArrayLiteral, Sequence {
    /// The elements.
    public let value: [any LCValue]

    public init(_ elements: [any LCValueConvertible] = []) {
        value = elements.map(\.lcValue)
    }

    init(values: [any LCValue]) {
        value = values
    }

    public convenience init(arrayLiteral elements: any LCValueConvertible...) {
        self.init(elements)
    }

    /// The number of elements.
    public var count: Int { value.count }

    /// The element at `index`.
    public subscript(index: Int) -> any LCValue { value[index] }

    public func makeIterator() -> IndexingIterator<[any LCValue]> {
        value.makeIterator()
    }

    public var description: String {
        "[" + value.map(\.description).joined(separator: ", ") + "]"
    }
}
