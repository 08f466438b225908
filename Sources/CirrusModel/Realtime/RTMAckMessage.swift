/// `AckCommand`, `GenericCommand.ackMessage` (field 105): the fields of an `ack` that LiveQuery uses.
///
/// The JS SDK acknowledges LiveQuery events with `ids`; the IM fields (3–9) are skipped when decoding.
public struct RTMAckMessage: Sendable, Hashable {
    /// `optional int32 code = 1`.
    public var code: Int32?
    /// `optional string reason = 2`.
    public var reason: String?
    /// `repeated string ids = 10`: the acknowledged ids.
    public var ids: [String]
    /// `optional int32 appCode = 11`.
    public var appCode: Int32?
    /// `optional string appMsg = 12`.
    public var appMsg: String?

    public init(
        code: Int32? = nil, reason: String? = nil, ids: [String] = [], appCode: Int32? = nil, appMsg: String? = nil
    ) {
        self.code = code
        self.reason = reason
        self.ids = ids
        self.appCode = appCode
        self.appMsg = appMsg
    }
}

extension RTMAckMessage {
    /// Adds the fields of one encoded `AckCommand`.
    mutating func merge(from reader: inout ProtobufReader) throws(RTMDecodingError) {
        while let field = try reader.readField() {
            switch (field.number, field.wireType) {
            case (1, .varint): code = try reader.readInt32()
            case (2, .lengthDelimited): reason = try reader.readString()
            case (10, .lengthDelimited): ids.append(try reader.readString())
            case (11, .varint): appCode = try reader.readInt32()
            case (12, .lengthDelimited): appMsg = try reader.readString()
            default: try reader.skip(field.wireType)
            }
        }
    }

    /// Writes the fields, in field-number order.
    func write(to writer: inout ProtobufWriter) {
        if let code { writer.writeInt32(field: 1, code) }
        if let reason { writer.writeString(field: 2, reason) }
        for id in ids { writer.writeString(field: 10, id) }
        if let appCode { writer.writeInt32(field: 11, appCode) }
        if let appMsg { writer.writeString(field: 12, appMsg) }
    }
}
