/// Why bytes or JSON are not a well-formed realtime (RTM) command: malformed protobuf (a truncated varint, a length
/// past the end, a group or reserved wire type, field number 0, text that is not UTF-8, a missing `required` field)
/// or JSON whose members have the wrong types.
///
/// Servers answer it by closing the socket with 4114 `UNPARSEABLE_RAW_MESSAGE`; the reason is for logs.
public struct RTMDecodingError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What is wrong, in words (with the byte offset for protobuf).
    public let reason: String

    public init(_ reason: String) {
        self.reason = reason
    }

    public var description: String { reason }
}
