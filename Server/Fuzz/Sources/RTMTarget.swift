import CirrusModel

/// The realtime (RTM) command codec. A command decoded from protobuf or from JSON encodes to protobuf that decodes to
/// the same command and encodes to the same bytes. A command decoded from JSON writes back to JSON that decodes to the
/// same command; one decoded from protobuf writes to JSON (which leaves out what JSON cannot say) that decodes and
/// writes back to the same JSON.
enum RTMTarget {
    static func run(_ input: [UInt8]) {
        if let command = try? RTMCommand(protobuf: input) {
            checkProtobuf(command)
            let json = command.json
            let reread = decoded("the JSON form \(json) of \(command)") { () throws(RTMDecodingError) in
                try RTMCommand(json: json)
            }
            FuzzCheck.that(reread.json == json, "the JSON form of \(command) is not stable: \(json), then \(reread.json)")
        }
        if let json = try? JSONParser.parse(input), let command = try? RTMCommand(json: json) {
            checkProtobuf(command)
            let reread = decoded("the JSON form \(command.json) of \(command)") { () throws(RTMDecodingError) in
                try RTMCommand(json: command.json)
            }
            FuzzCheck.that(reread == command, "JSON → command → JSON → command changed \(command) into \(reread)")
        }
    }

    /// Encoding is deterministic and decodes back to `command`.
    private static func checkProtobuf(_ command: RTMCommand) {
        let bytes = command.protobuf
        let reread = decoded("the protobuf \(bytes) of \(command)") { () throws(RTMDecodingError) in
            try RTMCommand(protobuf: bytes)
        }
        FuzzCheck.that(reread == command, "encode → decode changed \(command) into \(reread)")
        FuzzCheck.that(reread.protobuf == bytes, "the protobuf of \(command) is not stable")
    }

    /// What `decode` gives for an encoding the codec wrote itself; a failed check when it refuses it.
    private static func decoded(
        _ what: @autoclosure () -> String, _ decode: () throws(RTMDecodingError) -> RTMCommand
    ) -> RTMCommand {
        do {
            return try decode()
        } catch {
            fatalError("\(what()) does not decode: \(error)")
        }
    }
}
