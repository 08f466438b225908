/// `DataCommand`, `GenericCommand.dataMessage` (field 101): what a `data` command delivers, e.g. LiveQuery events.
///
/// `msg` holds the `data` text of each `JsonObjectMessage` (`required string data = 1`), a JSON document.
public struct RTMDataMessage: Sendable, Hashable {
    /// `repeated string ids = 1`: one id per message (LiveQuery: event ids).
    public var ids: [String]
    /// `repeated JsonObjectMessage msg = 2`: each message's `data`, JSON text.
    public var msg: [String]
    /// `optional bool offline = 3`.
    public var offline: Bool?

    public init(ids: [String] = [], msg: [String] = [], offline: Bool? = nil) {
        self.ids = ids
        self.msg = msg
        self.offline = offline
    }
}

extension RTMDataMessage {
    /// Adds the fields of one encoded `DataCommand` (protobuf merges repeated occurrences of a message field).
    mutating func merge(from reader: inout ProtobufReader) throws(RTMDecodingError) {
        while let field = try reader.readField() {
            switch (field.number, field.wireType) {
            case (1, .lengthDelimited): ids.append(try reader.readString())
            case (2, .lengthDelimited):
                var message = try reader.readMessage()
                msg.append(try Self.jsonObjectData(from: &message))
            case (3, .varint): offline = try reader.readBool()
            default: try reader.skip(field.wireType)
            }
        }
    }

    /// The `data` of a `JsonObjectMessage`, its one required field.
    private static func jsonObjectData(from reader: inout ProtobufReader) throws(RTMDecodingError) -> String {
        var data: String?
        while let field = try reader.readField() {
            switch (field.number, field.wireType) {
            case (1, .lengthDelimited): data = try reader.readString()
            default: try reader.skip(field.wireType)
            }
        }
        guard let data else { throw RTMDecodingError("JsonObjectMessage without its required data") }
        return data
    }

    /// Writes the fields, in field-number order.
    func write(to writer: inout ProtobufWriter) {
        for id in ids { writer.writeString(field: 1, id) }
        for data in msg { writer.writeMessage(field: 2) { $0.writeString(field: 1, data) } }
        if let offline { writer.writeBool(field: 3, offline) }
    }
}
