/// `ErrorCommand`, `GenericCommand.errorMessage` (field 103): why a command failed.
///
/// `code` and `reason` are `required`: SwiftProtobuf refuses an `ErrorCommand` without them, so they are not optional
/// here, and a decoded one without them is malformed.
public struct RTMErrorMessage: Sendable, Hashable {
    /// `required int32 code = 1`: a LeanCloud error code (e.g. 4103 `INVALID_LOGIN`).
    public var code: Int32
    /// `required string reason = 2`.
    public var reason: String
    /// `optional int32 appCode = 3`.
    public var appCode: Int32?
    /// `optional string detail = 4`.
    public var detail: String?
    /// `repeated string pids = 5`.
    public var pids: [String]
    /// `optional string appMsg = 6`.
    public var appMsg: String?

    public init(
        code: Int32, reason: String, appCode: Int32? = nil, detail: String? = nil, pids: [String] = [],
        appMsg: String? = nil
    ) {
        self.code = code
        self.reason = reason
        self.appCode = appCode
        self.detail = detail
        self.pids = pids
        self.appMsg = appMsg
    }
}

extension RTMErrorMessage {
    /// The fields read so far: protobuf merges repeated occurrences of a message field, so the required fields are
    /// checked only once the whole command is read.
    struct Partial {
        var code: Int32?
        var reason: String?
        var appCode: Int32?
        var detail: String?
        var pids: [String] = []
        var appMsg: String?

        /// Adds the fields of one encoded `ErrorCommand`.
        mutating func merge(from reader: inout ProtobufReader) throws(RTMDecodingError) {
            while let field = try reader.readField() {
                switch (field.number, field.wireType) {
                case (1, .varint): code = try reader.readInt32()
                case (2, .lengthDelimited): reason = try reader.readString()
                case (3, .varint): appCode = try reader.readInt32()
                case (4, .lengthDelimited): detail = try reader.readString()
                case (5, .lengthDelimited): pids.append(try reader.readString())
                case (6, .lengthDelimited): appMsg = try reader.readString()
                default: try reader.skip(field.wireType)
                }
            }
        }

        /// The message, once both required fields are there.
        func complete() throws(RTMDecodingError) -> RTMErrorMessage {
            guard let code else { throw RTMDecodingError("ErrorCommand without its required code") }
            guard let reason else { throw RTMDecodingError("ErrorCommand without its required reason") }
            return RTMErrorMessage(
                code: code, reason: reason, appCode: appCode, detail: detail, pids: pids, appMsg: appMsg)
        }
    }

    /// Writes the fields, in field-number order; the required ones always.
    func write(to writer: inout ProtobufWriter) {
        writer.writeInt32(field: 1, code)
        writer.writeString(field: 2, reason)
        if let appCode { writer.writeInt32(field: 3, appCode) }
        if let detail { writer.writeString(field: 4, detail) }
        for pid in pids { writer.writeString(field: 5, pid) }
        if let appMsg { writer.writeString(field: 6, appMsg) }
    }
}
