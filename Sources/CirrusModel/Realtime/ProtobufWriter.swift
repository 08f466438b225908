/// Writes the protobuf binary format (proto2) field by field, in the order the caller writes them.
///
/// Callers write fields in field-number order and only the fields that are set, so equal messages give equal bytes.
public struct ProtobufWriter {
    /// The bytes written so far.
    public private(set) var bytes: [UInt8] = []

    public init() {}

    /// Appends a base-128 varint.
    public mutating func writeVarint(_ value: UInt64) {
        var rest = value
        while rest >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: rest) | 0x80)
            rest >>= 7
        }
        bytes.append(UInt8(rest))
    }

    /// Appends a field's tag.
    public mutating func writeTag(field number: Int, _ wireType: ProtobufWireType) {
        precondition((1...ProtobufReader.maximumFieldNumber).contains(number), "invalid field number \(number)")
        writeVarint(UInt64(number) << 3 | UInt64(wireType.rawValue))
    }

    /// An `int32` or enum field; a negative value takes ten bytes (sign-extended to 64 bits), as protobuf specifies.
    public mutating func writeInt32(field number: Int, _ value: Int32) {
        writeInt64(field: number, Int64(value))
    }

    /// An `int64` field.
    public mutating func writeInt64(field number: Int, _ value: Int64) {
        writeTag(field: number, .varint)
        writeVarint(UInt64(bitPattern: value))
    }

    /// A `bool` field.
    public mutating func writeBool(field number: Int, _ value: Bool) {
        writeTag(field: number, .varint)
        writeVarint(value ? 1 : 0)
    }

    /// A `string` field, as UTF-8.
    public mutating func writeString(field number: Int, _ value: String) {
        writeBytes(field: number, value.utf8)
    }

    /// A `bytes` field.
    public mutating func writeBytes(field number: Int, _ value: some Collection<UInt8>) {
        writeTag(field: number, .lengthDelimited)
        writeVarint(UInt64(value.count))
        bytes.append(contentsOf: value)
    }

    /// An embedded message field whose fields `body` writes.
    public mutating func writeMessage(field number: Int, _ body: (inout ProtobufWriter) -> Void) {
        var message = ProtobufWriter()
        body(&message)
        writeBytes(field: number, message.bytes)
    }
}
