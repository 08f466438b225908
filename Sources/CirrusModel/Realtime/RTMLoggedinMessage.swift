/// `LoggedinCommand`, `GenericCommand.loggedinMessage` (field 117) of the Swift and Java SDKs' `.proto`.
public struct RTMLoggedinMessage: Sendable, Hashable {
    /// `optional bool pushDisabled = 1`.
    public var pushDisabled: Bool?

    public init(pushDisabled: Bool? = nil) {
        self.pushDisabled = pushDisabled
    }
}

extension RTMLoggedinMessage {
    /// Adds the fields of one encoded `LoggedinCommand`.
    mutating func merge(from reader: inout ProtobufReader) throws(RTMDecodingError) {
        while let field = try reader.readField() {
            switch (field.number, field.wireType) {
            case (1, .varint): pushDisabled = try reader.readBool()
            default: try reader.skip(field.wireType)
            }
        }
    }

    /// Writes the fields.
    func write(to writer: inout ProtobufWriter) {
        if let pushDisabled { writer.writeBool(field: 1, pushDisabled) }
    }
}
