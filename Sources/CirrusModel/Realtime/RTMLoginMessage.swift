/// `LoginCommand`, `GenericCommand.loginMessage` (field 100) of the Swift SDK's `.proto`: only whether it is there.
///
/// Its contents (`systemInfo`, the device's description) are checked to be well-formed protobuf and then dropped;
/// LiveQuery does not use them, so it is written back empty.
public struct RTMLoginMessage: Sendable, Hashable {
    public init() {}
}

extension RTMLoginMessage {
    /// Reads one encoded `LoginCommand`: checks that its fields are well-formed and drops them.
    init(from reader: inout ProtobufReader) throws(RTMDecodingError) {
        self.init()
        while let field = try reader.readField() {
            try reader.skip(field.wireType)
        }
    }
}
