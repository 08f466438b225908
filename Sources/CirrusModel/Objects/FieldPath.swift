/// A field, or a path into a nested object or array, written `a.b.0.c` on the wire.
public struct FieldPath: Sendable, Hashable, CustomStringConvertible {
    /// The segments; the first names a top-level field.
    public let segments: [String]

    public init(_ segments: [String]) {
        precondition(!segments.isEmpty, "a field path has at least one segment")
        self.segments = segments
    }

    /// A top-level field.
    public init(field: String) {
        segments = [field]
    }

    /// The top-level field the path starts at.
    public var root: String { segments[0] }

    /// Whether the path goes below the top level.
    public var isNested: Bool { segments.count > 1 }

    /// The dotted form.
    public var description: String { segments.joined(separator: ".") }

    /// Whether `self` is `other` or lies below it (`a.b` is within `a`).
    public func isWithin(_ other: FieldPath) -> Bool {
        segments.count >= other.segments.count && Array(segments.prefix(other.segments.count)) == other.segments
    }

    /// Parses a dotted key written by a client: a valid field name, then nested keys or array indexes.
    /// - Throws: ``APIError`` with reason ``APIError/Reason/invalidKeyName``.
    public init(parsing dotted: String) throws(APIError) {
        let parts = dotted.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard let first = parts.first, FieldName.isIdentifier(first) else { throw APIError.invalidKey(dotted) }
        for part in parts.dropFirst() where !FieldPath.isValidSegment(part) {
            throw APIError.invalidKey(dotted)
        }
        segments = parts
    }

    /// A nested segment: non-empty, without `$`, quotes, backslashes or control characters.
    static func isValidSegment(_ segment: String) -> Bool {
        !segment.isEmpty && segment.utf8.allSatisfy { byte in
            byte >= 0x20 && byte != UInt8(ascii: "$") && byte != UInt8(ascii: "\"") && byte != UInt8(ascii: "\\")
                && byte != UInt8(ascii: "'")
        }
    }

    /// Whether a segment is all digits and so may index an array.
    public static func isIndex(_ segment: String) -> Bool {
        !segment.isEmpty && segment.utf8.count <= 9 && segment.utf8.allSatisfy(\.isASCIIDigit)
    }
}
