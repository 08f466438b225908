import CirrusModel
import Testing

@Suite("ProtobufReader and ProtobufWriter")
struct ProtobufCodecTests {
    @Test("varints are written in base 128, low group first, and read back", arguments: [
        (UInt64(0), "00"), (1, "01"), (127, "7f"), (128, "8001"), (300, "ac02"), (16_383, "ff7f"), (16_384, "808001"),
        (UInt64(UInt32.max), "ffffffff0f"), (UInt64.max, "ffffffffffffffffff01"),
    ])
    func varints(_ value: UInt64, _ encoded: String) throws {
        var writer = ProtobufWriter()
        writer.writeVarint(value)
        #expect(writer.bytes == hex(encoded))
        var reader = ProtobufReader(hex(encoded))
        #expect(try reader.readVarint() == value)
        #expect(reader.isAtEnd)
    }

    @Test("a redundant but well-formed varint (trailing zero groups) reads as its value")
    func paddedVarint() throws {
        var reader = ProtobufReader(hex("8180808000"))
        #expect(try reader.readVarint() == 1)
    }

    @Test("malformed varints are refused", arguments: [
        "", "80", "ff", "ffffffffffffffffff",  // truncated
        "ffffffffffffffffff02", "ffffffffffffffffff7f",  // the tenth byte holds more than bit 63
        "ffffffffffffffffff8001",  // eleven bytes
        "8080808080808080808000",
    ])
    func malformedVarint(_ encoded: String) {
        var reader = ProtobufReader(hex(encoded))
        #expect(throws: RTMDecodingError.self) { try reader.readVarint() }
    }

    @Test("int32 values: negative ones take ten bytes, and a wider varint is truncated to 32 bits", arguments: [
        (Int32(0), "0800"), (1, "0801"), (-1, "08ffffffffffffffffff01"), (.max, "08ffffffff07"),
        (.min, "0880808080f8ffffffff01"),
    ])
    func int32(_ value: Int32, _ encoded: String) throws {
        var writer = ProtobufWriter()
        writer.writeInt32(field: 1, value)
        #expect(writer.bytes == hex(encoded))
        var reader = ProtobufReader(hex(encoded))
        _ = try reader.readField()
        #expect(try reader.readInt32() == value)
        var wide = ProtobufReader(hex("8180808010"))  // 2³² + 1
        #expect(try wide.readInt32() == 1)
    }

    @Test("tags carry the field number and wire type")
    func tags() throws {
        var writer = ProtobufWriter()
        writer.writeTag(field: 1, .varint)
        writer.writeTag(field: 101, .lengthDelimited)
        writer.writeTag(field: ProtobufReader.maximumFieldNumber, .fixed32)
        #expect(writer.bytes == hex("08 aa06 fdffffff0f"))
        var reader = ProtobufReader(writer.bytes)
        #expect(try reader.readField()! == (1, .varint))
        #expect(try reader.readField()! == (101, .lengthDelimited))
        #expect(try reader.readField()! == (ProtobufReader.maximumFieldNumber, .fixed32))
        #expect(try reader.readField() == nil)
    }

    @Test("malformed tags are refused", arguments: [
        "00",  // field 0, varint
        "02",  // field 0, length-delimited
        "0b", "0c",  // groups (wire types 3 and 4)
        "0e", "0f",  // wire types 6 and 7
        "80",  // truncated
        "8080808010",  // more than 32 bits, so a field number past 2²⁹ − 1
    ])
    func malformedTag(_ encoded: String) {
        var reader = ProtobufReader(hex(encoded))
        #expect(throws: RTMDecodingError.self) { try reader.readField() }
    }

    @Test("values of every wire type are skipped")
    func skipping() throws {
        // field 1 varint 300, field 2 fixed64, field 3 "abc", field 4 fixed32, then field 5 varint 7
        var reader = ProtobufReader(hex("08ac02 110102030405060708 1a03616263 2501020304 2807"))
        for _ in 1...4 {
            let field = try #require(try reader.readField())
            try reader.skip(field.wireType)
        }
        #expect(try reader.readField()! == (5, .varint))
        #expect(try reader.readInt32() == 7)
        #expect(reader.isAtEnd)
    }

    @Test("values that run past the end are refused", arguments: [
        ("11 01020304050607", ProtobufWireType.fixed64),
        ("25 010203", .fixed32),
        ("1a 04 616263", .lengthDelimited),
        ("1a ffffffffffffffff7f", .lengthDelimited),  // a length near 2⁶³: refused before any allocation
        ("1a", .lengthDelimited),
        ("08", .varint),
    ])
    func truncatedValues(_ encoded: String, _ wireType: ProtobufWireType) throws {
        var reader = ProtobufReader(hex(encoded))
        #expect(try reader.readField()?.wireType == wireType)
        #expect(throws: RTMDecodingError.self) { try reader.skip(wireType) }
    }

    @Test("strings must be well-formed UTF-8", arguments: [
        "c3a9e4b8",  // truncated sequence
        "80",  // lone continuation byte
        "c0af",  // overlong "/"
        "eda080",  // surrogate U+D800
        "f4908080",  // past U+10FFFF
        "ff",
    ])
    func illFormedStrings(_ text: String) throws {
        let value = hex(text)
        var reader = ProtobufReader([0x0A, UInt8(value.count)] + value)
        _ = try reader.readField()
        #expect(throws: RTMDecodingError.self) { try reader.readString() }
    }

    @Test("well-formed strings read back, U+FFFD and NUL included", arguments: ["", "é中😀", "\u{FFFD}", "a\u{0}b"])
    func strings(_ text: String) throws {
        var writer = ProtobufWriter()
        writer.writeString(field: 1, text)
        var reader = ProtobufReader(writer.bytes)
        _ = try reader.readField()
        #expect(try reader.readString() == text)
    }

    @Test("an embedded message is read by its own reader, which stops at its length")
    func embeddedMessage() throws {
        var writer = ProtobufWriter()
        writer.writeMessage(field: 2) { $0.writeBool(field: 1, true) }
        writer.writeInt64(field: 3, -2)
        var reader = ProtobufReader(writer.bytes)
        #expect(try reader.readField()! == (2, .lengthDelimited))
        var message = try reader.readMessage()
        #expect(try message.readField()! == (1, .varint))
        #expect(try message.readBool())
        #expect(try message.readField() == nil)
        #expect(try reader.readField()! == (3, .varint))
        #expect(try reader.readInt64() == -2)
    }
}
