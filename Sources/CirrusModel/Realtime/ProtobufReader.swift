/// How a protobuf field's value is laid out on the wire: the low three bits of its tag.
///
/// Groups (3 and 4) are deprecated and no message of the realtime protocol has them; they, 6 and 7 are malformed.
public enum ProtobufWireType: UInt8, Sendable {
    case varint = 0
    case fixed64 = 1
    case lengthDelimited = 2
    case fixed32 = 5
}

/// Reads the protobuf binary format (proto2) field by field, with every length checked against what remains.
///
/// It never reads past its end and never allocates more than the bytes it reads: a length prefix larger than what
/// remains is an error before anything is copied. A sub-message is read by a reader over the same storage.
///
/// ```swift
/// while let field = try reader.readField() {
///     switch (field.number, field.wireType) {
///     case (3, .lengthDelimited): appId = try reader.readString()
///     default: try reader.skip(field.wireType)
///     }
/// }
/// ```
public struct ProtobufReader {
    /// The largest field number protobuf allows (2²⁹ − 1).
    public static let maximumFieldNumber = 536_870_911

    private let bytes: [UInt8]
    private var index: Int
    private let end: Int

    /// A reader over all of `bytes`.
    public init(_ bytes: [UInt8]) {
        self.init(bytes, range: bytes.startIndex..<bytes.endIndex)
    }

    private init(_ bytes: [UInt8], range: Range<Int>) {
        self.bytes = bytes
        index = range.lowerBound
        end = range.upperBound
    }

    /// Whether every byte has been read.
    public var isAtEnd: Bool { index >= end }

    private func error(_ reason: String, at offset: Int? = nil) -> RTMDecodingError {
        RTMDecodingError("\(reason) at byte \(offset ?? index)")
    }

    /// The next field's number and wire type, or `nil` at the end. The caller then reads or skips its value.
    /// - Throws: ``RTMDecodingError`` for a malformed tag, field number 0 or past 2²⁹ − 1, or wire type 3, 4, 6 or 7.
    public mutating func readField() throws(RTMDecodingError) -> (number: Int, wireType: ProtobufWireType)? {
        guard !isAtEnd else { return nil }
        let start = index
        let tag = try readVarint()
        // 32 bits hold the largest field number, 2²⁹ − 1, and the wire type.
        guard tag <= UInt64(UInt32.max) else { throw error("tag larger than 32 bits", at: start) }
        let number = Int(tag >> 3)
        guard number > 0 else { throw error("field number 0", at: start) }
        guard let wireType = ProtobufWireType(rawValue: UInt8(tag & 7)) else {
            throw error("unsupported wire type \(tag & 7)", at: start)
        }
        return (number, wireType)
    }

    /// A base-128 varint of at most 10 bytes whose value fits in 64 bits.
    public mutating func readVarint() throws(RTMDecodingError) -> UInt64 {
        let start = index
        var value: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            guard index < end else { throw error("truncated varint", at: start) }
            let byte = bytes[index]
            index += 1
            // The tenth byte holds bit 63 only; anything more would not fit in 64 bits.
            if shift == 63, byte > 1 { throw error("varint overflows 64 bits", at: start) }
            value |= UInt64(byte & 0x7F) << shift
            if byte & 0x80 == 0 { return value }
            shift += 7
        }
    }

    /// An `int32` or enum value: a varint truncated to its low 32 bits, as protobuf specifies.
    public mutating func readInt32() throws(RTMDecodingError) -> Int32 {
        Int32(truncatingIfNeeded: try readVarint())
    }

    /// An `int64` value.
    public mutating func readInt64() throws(RTMDecodingError) -> Int64 {
        Int64(bitPattern: try readVarint())
    }

    /// A `bool` value: any non-zero varint is `true`.
    public mutating func readBool() throws(RTMDecodingError) -> Bool {
        try readVarint() != 0
    }

    /// The bounds of a length-delimited value, which the reader moves past.
    private mutating func readLengthDelimited() throws(RTMDecodingError) -> Range<Int> {
        let start = index
        let length = try readVarint()
        guard length <= UInt64(end - index) else { throw error("length \(length) past the end", at: start) }
        let range = index..<(index + Int(length))
        index = range.upperBound
        return range
    }

    /// A `string` value, which must be valid UTF-8.
    public mutating func readString() throws(RTMDecodingError) -> String {
        let start = index
        let range = try readLengthDelimited()
        // Decoding repairs ill-formed UTF-8 with U+FFFD, so the text spells other bytes exactly when they were
        // ill-formed. (`String(validating:as:)` would say it at once, but needs macOS 15 and the model supports 12.)
        let text = String(decoding: bytes[range], as: UTF8.self)
        guard text.utf8.elementsEqual(bytes[range]) else { throw error("string is not valid UTF-8", at: start) }
        return text
    }

    /// A `bytes` value.
    public mutating func readBytes() throws(RTMDecodingError) -> [UInt8] {
        Array(bytes[try readLengthDelimited()])
    }

    /// A reader over an embedded message, which this reader moves past.
    public mutating func readMessage() throws(RTMDecodingError) -> ProtobufReader {
        ProtobufReader(bytes, range: try readLengthDelimited())
    }

    /// Moves past the value of a field that the caller does not read (an unknown field, or a known number sent
    /// with another wire type, which protobuf also treats as unknown).
    public mutating func skip(_ wireType: ProtobufWireType) throws(RTMDecodingError) {
        switch wireType {
        case .varint: _ = try readVarint()
        case .fixed64: try skipBytes(8)
        case .fixed32: try skipBytes(4)
        case .lengthDelimited: _ = try readLengthDelimited()
        }
    }

    private mutating func skipBytes(_ count: Int) throws(RTMDecodingError) {
        guard end - index >= count else { throw error("truncated fixed-size value") }
        index += count
    }
}
