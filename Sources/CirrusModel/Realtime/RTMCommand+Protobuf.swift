/// The protobuf form of `GenericCommand`, for the `lc.protobuf2.*` subprotocols.
extension RTMCommand {
    /// Decodes one binary frame.
    ///
    /// Unknown fields, and known field numbers sent with another wire type, are skipped, as protobuf decoders do;
    /// a singular field sent twice keeps its last value, and a sub-message sent twice is merged (taken out of `self`
    /// while it is, so that its arrays are not copied: decoding stays linear in the input).
    /// - Throws: ``RTMDecodingError`` for malformed protobuf, text that is not UTF-8, or an `ErrorCommand` or
    ///   `JsonObjectMessage` without its `required` fields.
    public init(protobuf bytes: some Collection<UInt8>) throws(RTMDecodingError) {
        self.init()
        var reader = ProtobufReader(Array(bytes))
        var error: RTMErrorMessage.Partial?
        while let field = try reader.readField() {
            switch (field.number, field.wireType) {
            case (1, .varint): cmd = RTMCommandType(rawValue: try reader.readInt32())
            case (2, .varint): op = try reader.readInt32()
            case (3, .lengthDelimited): appId = try reader.readString()
            case (4, .lengthDelimited): peerId = try reader.readString()
            case (5, .varint): i = try reader.readInt32()
            case (6, .lengthDelimited): installationId = try reader.readString()
            case (7, .varint): priority = try reader.readInt32()
            case (8, .varint): service = try reader.readInt32()
            case (9, .varint): serverTs = try reader.readInt64()
            case (10, .varint): clientTs = try reader.readInt64()
            case (11, .varint): notificationType = try reader.readInt32()
            case (100, .lengthDelimited):
                var message = try reader.readMessage()
                loginMessage = try RTMLoginMessage(from: &message)
            case (101, .lengthDelimited):
                var message = try reader.readMessage()
                var data = dataMessage.take() ?? RTMDataMessage()
                try data.merge(from: &message)
                dataMessage = data
            case (103, .lengthDelimited):
                var message = try reader.readMessage()
                var partial = error.take() ?? RTMErrorMessage.Partial()
                try partial.merge(from: &message)
                error = partial
            case (105, .lengthDelimited):
                var message = try reader.readMessage()
                var ack = ackMessage.take() ?? RTMAckMessage()
                try ack.merge(from: &message)
                ackMessage = ack
            case (117, .lengthDelimited):
                var message = try reader.readMessage()
                var loggedin = loggedinMessage.take() ?? RTMLoggedinMessage()
                try loggedin.merge(from: &message)
                loggedinMessage = loggedin
            case (1001, .varint): resumeAfter = try reader.readInt64()
            case (1002, .varint): position = try reader.readInt64()
            case (1003, .varint): resumed = try reader.readBool()
            default: try reader.skip(field.wireType)
            }
        }
        errorMessage = try error?.complete()
    }

    /// The binary frame: the fields that are set, in field-number order, so equal commands give equal bytes.
    public var protobuf: [UInt8] {
        var writer = ProtobufWriter()
        if let cmd { writer.writeInt32(field: 1, cmd.rawValue) }
        if let op { writer.writeInt32(field: 2, op) }
        if let appId { writer.writeString(field: 3, appId) }
        if let peerId { writer.writeString(field: 4, peerId) }
        if let i { writer.writeInt32(field: 5, i) }
        if let installationId { writer.writeString(field: 6, installationId) }
        if let priority { writer.writeInt32(field: 7, priority) }
        if let service { writer.writeInt32(field: 8, service) }
        if let serverTs { writer.writeInt64(field: 9, serverTs) }
        if let clientTs { writer.writeInt64(field: 10, clientTs) }
        if let notificationType { writer.writeInt32(field: 11, notificationType) }
        if loginMessage != nil { writer.writeMessage(field: 100) { _ in } }
        if let dataMessage { writer.writeMessage(field: 101, dataMessage.write(to:)) }
        if let errorMessage { writer.writeMessage(field: 103, errorMessage.write(to:)) }
        if let ackMessage { writer.writeMessage(field: 105, ackMessage.write(to:)) }
        if let loggedinMessage { writer.writeMessage(field: 117, loggedinMessage.write(to:)) }
        if let resumeAfter { writer.writeInt64(field: 1001, resumeAfter) }
        if let position { writer.writeInt64(field: 1002, position) }
        if let resumed { writer.writeBool(field: 1003, resumed) }
        return writer.bytes
    }
}
