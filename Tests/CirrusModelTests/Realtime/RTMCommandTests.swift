import CirrusModel
import Testing

/// Commands and their protobuf bytes. The bytes were worked out by hand and checked once against Google's Python
/// protobuf runtime (`SerializeToString(deterministic=True)` of `push_server.messages2.GenericCommand`).
private let vectors: [(String, RTMCommand, String)] = [
    ("login", RTMCommand(cmd: .login, appId: "a", i: 1, installationId: "x", service: 1), "0808 1a0161 2801 320178 4001"),
    (
        "event",
        RTMCommand(cmd: .data, installationId: "x", service: 1, dataMessage: RTMDataMessage(ids: ["e1"], msg: ["{}"])),
        "0809 320178 4001 aa060a 0a026531 1204 0a027b7d"
    ),
    ("loggedin", RTMCommand(cmd: .loggedin, i: 1), "080f 2801"),
    (
        "login error",
        RTMCommand(cmd: .error, i: 1, errorMessage: RTMErrorMessage(code: 4103, reason: "bad")),
        "0807 2801 ba0608 088720 1203626164"
    ),
    ("echo with a negative i", RTMCommand(cmd: .echo, i: -1), "080e 28ffffffffffffffffff01"),
    (
        "ack",
        RTMCommand(cmd: .ack, appId: "a", installationId: "x", service: 1, ackMessage: RTMAckMessage(ids: ["e1", "e2"])),
        "0803 1a0161 320178 4001 ca0608 52026531 52026532"
    ),
    ("goaway", RTMCommand(cmd: .goaway), "0815"),
    (
        "login with clientTs and an empty loginMessage",
        RTMCommand(cmd: .login, appId: "a", i: 1, installationId: "x", service: 1, clientTs: 1_700_000_000_000,
            loginMessage: RTMLoginMessage()),
        "0808 1a0161 2801 320178 4001 5080d095ffbc31 a20600"
    ),
    (
        "loggedin with pushDisabled",
        RTMCommand(cmd: .loggedin, i: 2, loggedinMessage: RTMLoggedinMessage(pushDisabled: true)),
        "080f 2802 aa07020801"
    ),
    ("serverTs -1", RTMCommand(serverTs: -1), "48ffffffffffffffffff01"),
    ("the empty command", RTMCommand(), ""),
]

/// A command with every field set, sub-messages included.
let everyField = RTMCommand(
    cmd: .data, op: 33, appId: "app", peerId: "peer", i: 7, installationId: "inst", priority: 2, service: 1,
    serverTs: 1_700_000_000_123, clientTs: -5, notificationType: 3, loginMessage: RTMLoginMessage(),
    dataMessage: RTMDataMessage(ids: ["e1", "e2"], msg: [#"{"op":"create","query_id":"Q"}"#, "[1,2]"], offline: false),
    errorMessage: RTMErrorMessage(code: 4100, reason: "off", appCode: 9, detail: "why", pids: ["p1", "p2"], appMsg: "m"),
    ackMessage: RTMAckMessage(code: 1, reason: "r", ids: ["a1"], appCode: 2, appMsg: "am"),
    loggedinMessage: RTMLoggedinMessage(pushDisabled: false))

@Suite("RTMCommand protobuf")
struct RTMCommandTests {
    @Test("known commands encode to the expected bytes and decode back", arguments: vectors)
    func knownVectors(_ name: String, _ command: RTMCommand, _ bytes: String) throws {
        #expect(command.protobuf == hex(bytes), "\(name)")
        #expect(try RTMCommand(protobuf: hex(bytes)) == command, "\(name)")
    }

    @Test("a command with every field set survives encoding and decoding")
    func roundTrip() throws {
        #expect(try RTMCommand(protobuf: everyField.protobuf) == everyField)
        #expect(try RTMCommand(protobuf: everyField.protobuf).protobuf == everyField.protobuf)
    }

    @Test("every command type has its value and .proto name; other values are kept as unknown")
    func commandTypes() throws {
        let names = "session conv direct ack rcp unread logs error login data room read presence report echo loggedin "
            + "logout loggedout patch pubsub blacklist goaway"
        for (value, name) in names.split(separator: " ").enumerated() {
            let type = RTMCommandType(rawValue: Int32(value))
            #expect(type.name == String(name))
            #expect(RTMCommandType(name: String(name)) == type)
            #expect(type.rawValue == Int32(value))
        }
        #expect(RTMCommandType(rawValue: 22) == .unknown(22))
        #expect(RTMCommandType(rawValue: 22).name == nil)
        #expect(RTMCommandType.unknown(8) == .login)
        #expect(RTMCommandType.unknown(8).name == "login")
        #expect(RTMCommandType(name: "unknown") == nil)
        let future = try RTMCommand(protobuf: hex("0863 2801"))
        #expect(future.cmd == .unknown(99))
        #expect(future.protobuf == hex("0863 2801"))
    }

    @Test("unknown fields of every wire type are skipped, at the top level and inside sub-messages")
    func unknownFields() throws {
        // login, then field 12 varint, 13 fixed64, 14 "zz", 15 fixed32, 102 (sessionMessage) and 104 (directMessage)
        let top = "0808 6096 01 69 0102030405060708 72027a7a 7d01020304 b2060208 01 c20600 2801"
        #expect(try RTMCommand(protobuf: hex(top)) == RTMCommand(cmd: .login, i: 1))
        // dataMessage with field 9 varint, 10 fixed64, 11 bytes, 12 fixed32, and a JsonObjectMessage with field 2
        let data = "aa06 1d 4801 510102030405060708 5a0100 6501020304 1205 0a017b 1000 0a0165"
        #expect(try RTMCommand(protobuf: hex(data)) == RTMCommand(dataMessage: RTMDataMessage(ids: ["e"], msg: ["{"])))
        // ackMessage with the IM fields 3 mid, 5 t, 7 fromts
        let ack = "ca06 0b 1a016d 2805 3807 5202 6531"
        #expect(try RTMCommand(protobuf: hex(ack)) == RTMCommand(ackMessage: RTMAckMessage(ids: ["e1"])))
        // errorMessage with field 7 and 8
        let error = "ba06 10 0801 120172 3801 410200000000000000"
        #expect(try RTMCommand(protobuf: hex(error)) == RTMCommand(errorMessage: RTMErrorMessage(code: 1, reason: "r")))
        // the loginMessage's contents (systemInfo) are checked and dropped
        #expect(try RTMCommand(protobuf: hex("a206 04 0a020801")) == RTMCommand(loginMessage: RTMLoginMessage()))
    }

    @Test("a known field number sent with another wire type is skipped like an unknown field")
    func mismatchedWireType() throws {
        // appId (3) as a varint, i (5) as a string, cmd (1) as fixed32, dataMessage (101) as a varint
        let bytes = "1801 2a0161 0d01000000 a80601 3207696e7374616c6c"
        #expect(try RTMCommand(protobuf: hex(bytes)) == RTMCommand(installationId: "install"))
    }

    @Test("a singular field sent twice keeps the last value; a sub-message sent twice is merged")
    func repeatedFields() throws {
        #expect(try RTMCommand(protobuf: hex("0808 0809 2801 2802")) == RTMCommand(cmd: .data, i: 2))
        let data = "aa06 04 0a026531 aa06 06 0a026532 1801"
        #expect(try RTMCommand(protobuf: hex(data)).dataMessage == RTMDataMessage(ids: ["e1", "e2"], offline: true))
        // the error's required code comes in one occurrence and its reason in another
        let error = "ba06 02 0807 ba06 03 120172"
        #expect(try RTMCommand(protobuf: hex(error)).errorMessage == RTMErrorMessage(code: 7, reason: "r"))
    }

    @Test("int32 fields take the low 32 bits of a wider varint, as protobuf specifies")
    func int32Truncation() throws {
        #expect(try RTMCommand(protobuf: hex("28 8180808010")).i == 1)
        #expect(try RTMCommand(protobuf: hex("40 ffffffff0f")).service == -1)
    }

    @Test("malformed bytes are refused", arguments: [
        ("a truncated varint", "0808 28"),
        ("a truncated varint value", "28 80"),
        ("a varint of eleven bytes", "28 ffffffffffffffffff8001"),
        ("a varint past 64 bits", "48 ffffffffffffffffff02"),
        ("a length past the end", "1a 05 6162"),
        ("a huge length", "1a ffffffffffffffff7f 61"),
        ("a truncated fixed64", "69 01020304"),
        ("a truncated fixed32", "7d 0102"),
        ("a start-group wire type", "0b 0c"),
        ("an end-group wire type", "0c"),
        ("wire type 6", "0e 00"),
        ("wire type 7", "0f 00"),
        ("field number 0", "00 01"),
        ("field number 0, length-delimited", "02 00"),
        ("a tag past 32 bits", "8080808010 00"),
        ("an appId that is not UTF-8", "1a 02 c328"),
        ("a sub-message whose length runs past the command", "aa06 05 0a026531"),
        ("a sub-message with a truncated inner field", "aa06 03 0a0265"),
        ("a sub-message with a group inside", "aa06 01 0b"),
        ("a loginMessage with wire type 7 inside", "a206 01 0f"),
        ("an unknown field whose length runs past the end", "b206 02 0a"),
        ("a JsonObjectMessage without its data", "aa06 02 1200"),
        ("a JsonObjectMessage with only other fields", "aa06 04 1202 1001"),
        ("an errorMessage without its reason", "ba06 02 0807"),
        ("an errorMessage without its code", "ba06 03 120172"),
        ("an empty errorMessage", "ba06 00"),
    ])
    func malformed(_ name: String, _ bytes: String) {
        #expect(throws: RTMDecodingError.self, "\(name)") { try RTMCommand(protobuf: hex(bytes)) }
    }
}
