public import Foundation

/// A binary value, sent as `{"__type":"Bytes","base64":…}`. Keep large contents in an ``LCFile``.
public final class LCData: LCValue, Hashable {
    /// The bytes.
    public let value: Data

    public init(_ value: Data = Data()) {
        self.value = value
    }

    /// The bytes of a base64 text, or `nil` when the text is not base64.
    public convenience init?(base64EncodedString text: String) {
        guard let data = Data(base64Encoded: text) else { return nil }
        self.init(data)
    }

    /// The bytes as base64.
    public var base64EncodedString: String { value.base64EncodedString() }

    public var description: String { "<\(value.count) bytes>" }

    public static func == (lhs: LCData, rhs: LCData) -> Bool { lhs.value == rhs.value }

    public func hash(into hasher: inout Hasher) { hasher.combine(value) }
}
