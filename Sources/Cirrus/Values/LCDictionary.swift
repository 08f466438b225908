import CirrusModel

/// A dictionary value (a JSON object). Members may be set after creation.
public final class LCDictionary: LCValue, ExpressibleByDictionaryLiteral, @unchecked Sendable {
    private let lock = Lock()
    private var members: [String: any LCValue]

    public init(_ members: [String: any LCValueConvertible] = [:]) {
        self.members = members.mapValues(\.lcValue)
    }

    init(values: [String: any LCValue]) {
        members = values
    }

    public convenience init(dictionaryLiteral elements: (String, any LCValueConvertible)...) {
        self.init(Dictionary(elements, uniquingKeysWith: { _, last in last }))
    }

    /// The members.
    public var value: [String: any LCValue] { lock.withLock { members } }

    /// The member `key`; setting `nil` removes it.
    public subscript(key: String) -> (any LCValue)? {
        get { lock.withLock { members[key] } }
        set { lock.withLock { members[key] = newValue } }
    }

    /// Sets member `key` from any convertible value (`nil` removes it).
    public func set(_ key: String, value: (any LCValueConvertible)?) {
        self[key] = value?.lcValue
    }

    /// The number of members.
    public var count: Int { value.count }

    public var description: String {
        "{" + value.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }.joined(separator: ", ") + "}"
    }
}
