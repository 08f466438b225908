import CirrusModel
import Testing

@Suite("RTMCommand JSON (lc.json.3)")
struct RTMCommandJSONTests {
    @Test("the .NET SDK's login decodes, and the loggedin reply is flat")
    func login() throws {
        let text = #"{"cmd":"login","appId":"app","installationId":"inst","clientTs":1700000000000,"service":1,"i":1}"#
        let command = try RTMCommand(json: json(text))
        let expected = RTMCommand(
            cmd: .login, appId: "app", i: 1, installationId: "inst", service: 1, clientTs: 1_700_000_000_000)
        #expect(command == expected)
        #expect(command.json == json(text))
        #expect(JSONWriter.string(RTMCommand(cmd: .loggedin, i: 1).json) == #"{"cmd":"loggedin","i":1}"#)
    }

    @Test("Cirrus's resume extension (resumeAfter, position, resumed) goes both ways in JSON and protobuf, after LeanCloud's fields")
    func resumeExtension() throws {
        let login = RTMCommand(cmd: .login, appId: "app", i: 1, installationId: "inst", service: 1, resumeAfter: 1_764_000_000_000_001)
        let loggedin = RTMCommand(cmd: .loggedin, i: 1, installationId: "inst", service: 1, position: 42, resumed: false)
        for command in [login, loggedin] {
            #expect(try RTMCommand(json: command.json) == command)
            #expect(try RTMCommand(protobuf: command.protobuf) == command)
        }
        #expect(JSONWriter.string(loggedin.json) == #"{"cmd":"loggedin","i":1,"installationId":"inst","position":42,"resumed":false,"service":1}"#)
        // Field 1003 (varint 1, wire type 0) is the last field written: a LeanCloud SDK skips it as an unknown field.
        #expect(Array(loggedin.protobuf.suffix(3)) == [0xD8, 0x3E, 0x00])
    }

    @Test("an event puts ids and msg at the top level, each msg item a JSON object")
    func event() throws {
        let event = RTMCommand(
            cmd: .data, appId: "app", installationId: "inst", service: 1,
            dataMessage: RTMDataMessage(
                ids: ["e1"], msg: [#"{"query_id":"Q","op":"create","object":{"className":"Todo","objectId":"o1"}}"#]))
        let expected = json(
            #"{"cmd":"data","appId":"app","installationId":"inst","service":1,"ids":["e1"],"#
                + #""msg":[{"query_id":"Q","op":"create","object":{"className":"Todo","objectId":"o1"}}]}"#)
        #expect(event.json == expected)
        // decoding writes each item back as compact, key-sorted text
        let decoded = try RTMCommand(json: expected)
        let canonical = #"{"object":{"className":"Todo","objectId":"o1"},"op":"create","query_id":"Q"}"#
        #expect(decoded.dataMessage?.msg == [canonical])
        #expect(decoded.json == expected)
    }

    @Test("an error reply carries error.code and error.detail, which the .NET SDK reads")
    func errorReply() throws {
        let error = RTMCommand(cmd: .error, i: 1, errorMessage: RTMErrorMessage(code: 4103, reason: "invalid login"))
        #expect(
            JSONWriter.string(error.json)
                == #"{"cmd":"error","error":{"code":4103,"detail":"invalid login","reason":"invalid login"},"i":1}"#)
        #expect(try RTMCommand(json: error.json) == error)
        let detailed = RTMErrorMessage(code: 1, reason: "r", appCode: 2, detail: "d", pids: ["p"], appMsg: "m")
        #expect(
            RTMCommand(errorMessage: detailed).json
                == json(#"{"error":{"code":1,"reason":"r","detail":"d","appCode":2,"pids":["p"],"appMsg":"m"}}"#))
        #expect(try RTMCommand(json: RTMCommand(errorMessage: detailed).json).errorMessage == detailed)
    }

    @Test("an error decodes from an object with code and detail, or from a plain string", arguments: [
        (#"{"i":1,"error":{"code":4103,"detail":"no"}}"#, RTMErrorMessage(code: 4103, reason: "no")),
        (#"{"i":1,"error":{"code":4103,"reason":"r","detail":"d"}}"#,
            RTMErrorMessage(code: 4103, reason: "r", detail: "d")),
        (#"{"i":1,"error":{"code":4103,"reason":"r","detail":"r"}}"#, RTMErrorMessage(code: 4103, reason: "r")),
        (#"{"i":1,"error":"text"}"#, RTMErrorMessage(code: 0, reason: "text")),
    ])
    func errorForms(_ text: String, _ expected: RTMErrorMessage) throws {
        #expect(try RTMCommand(json: json(text)) == RTMCommand(i: 1, errorMessage: expected))
    }

    @Test("the heartbeat {} is the empty command, both ways")
    func heartbeat() throws {
        #expect(try RTMCommand(json: json("{}")) == RTMCommand())
        #expect(JSONWriter.string(RTMCommand().json) == "{}")
    }

    @Test("cmd and op are read as names or numbers; cmd is written as its name, op as a number", arguments: [
        (#"{"cmd":8}"#, RTMCommand(cmd: .login), #"{"cmd":"login"}"#),
        (#"{"cmd":99}"#, RTMCommand(cmd: .unknown(99)), #"{"cmd":99}"#),
        (#"{"cmd":"goaway"}"#, RTMCommand(cmd: .goaway), #"{"cmd":"goaway"}"#),
        (#"{"cmd":"conv","op":"start"}"#, RTMCommand(cmd: .conv, op: 30), #"{"cmd":"conv","op":30}"#),
        (#"{"cmd":"conv","op":"members-joined"}"#, RTMCommand(cmd: .conv, op: 33), #"{"cmd":"conv","op":33}"#),
        (#"{"op":33}"#, RTMCommand(op: 33), #"{"op":33}"#),
    ])
    func names(_ text: String, _ expected: RTMCommand, _ written: String) throws {
        let command = try RTMCommand(json: json(text))
        #expect(command == expected)
        #expect(JSONWriter.string(command.json) == written)
    }

    @Test("an ack's ids belong to ackMessage; other commands' ids to dataMessage")
    func ack() throws {
        let text = #"{"cmd":"ack","appId":"a","installationId":"x","service":1,"ids":["e1","e2"]}"#
        let ack = RTMCommand(
            cmd: .ack, appId: "a", installationId: "x", service: 1, ackMessage: RTMAckMessage(ids: ["e1", "e2"]))
        #expect(try RTMCommand(json: json(text)) == ack)
        #expect(ack.json == json(text))
        #expect(try RTMCommand(json: json(#"{"ids":["e1"]}"#)) == RTMCommand(dataMessage: RTMDataMessage(ids: ["e1"])))
    }

    @Test("unknown members are ignored and null members count as absent")
    func lenient() throws {
        let text = #"{"cmd":"echo","i":3,"appId":null,"future":{"x":[1]},"error":null,"msg":null}"#
        #expect(try RTMCommand(json: json(text)) == RTMCommand(cmd: .echo, i: 3))
    }

    @Test("every field survives JSON and back when cmd implies its sub-message")
    func roundTrip() throws {
        var command = everyField
        command.loginMessage = nil  // has no JSON form
        command.ackMessage = nil  // a data command's ids are the dataMessage's
        #expect(try RTMCommand(json: command.json) == command)
        var ack = command
        ack.cmd = .ack
        ack.dataMessage = nil
        ack.ackMessage = everyField.ackMessage
        #expect(try RTMCommand(json: ack.json) == ack)
    }

    @Test("a msg text that is not JSON is sent as a string")
    func nonJSONData() {
        let command = RTMCommand(dataMessage: RTMDataMessage(msg: ["not json"]))
        #expect(command.json == json(#"{"ids":[],"msg":["not json"]}"#))
    }

    @Test("members of the wrong type or out of range are refused", arguments: [
        "[]", "1", #""login""#, "null",
        #"{"cmd":"nope"}"#, #"{"cmd":true}"#, #"{"cmd":4294967296}"#, #"{"cmd":1.5}"#,
        #"{"op":"nope"}"#, #"{"op":[]}"#,
        #"{"appId":1}"#, #"{"peerId":false}"#, #"{"installationId":{}}"#,
        #"{"i":"1"}"#, #"{"i":2147483648}"#, #"{"i":-2147483649}"#, #"{"i":1.5}"#,
        #"{"service":"1"}"#, #"{"priority":true}"#, #"{"notificationType":[]}"#,
        #"{"serverTs":"1"}"#, #"{"clientTs":1e30}"#,
        #"{"ids":"e1"}"#, #"{"ids":[1]}"#, #"{"msg":{}}"#, #"{"offline":1}"#,
        #"{"cmd":"ack","ids":[null]}"#, #"{"cmd":"ack","code":"1"}"#, #"{"cmd":"ack","reason":1}"#,
        #"{"pushDisabled":"yes"}"#,
        #"{"error":1}"#, #"{"error":[]}"#, #"{"error":{}}"#, #"{"error":{"code":1}}"#, #"{"error":{"reason":"r"}}"#,
        #"{"error":{"code":"1","reason":"r"}}"#, #"{"error":{"code":1,"reason":2}}"#,
        #"{"error":{"code":1,"reason":"r","pids":"p"}}"#, #"{"error":{"code":1,"reason":"r","appCode":0.5}}"#,
    ])
    func invalid(_ text: String) {
        #expect(throws: RTMDecodingError.self, "\(text)") { try RTMCommand(json: json(text)) }
    }
}
