import CirrusModel
import Foundation
import NIOCore
import NIOHTTP1
import NIOWebSocket

/// How a LeanCloud realtime socket frames its commands, from the subprotocol it chose: `lc.protobuf2.N` (binary
/// protobuf frames: the JavaScript, Swift, Objective-C and Java SDKs), `lc.proto2base64.N` (the same as base64 text)
/// or `lc.json.N` (flat JSON text: the .NET SDK).
enum RTMFormat: Sendable {
    case protobuf
    case base64
    case json

    /// The format of a subprotocol name, any version.
    init?(subprotocol: String) {
        let name = subprotocol.trimmingCharacters(in: .whitespaces)
        if name.hasPrefix("lc.protobuf2.") {
            self = .protobuf
        } else if name.hasPrefix("lc.proto2base64.") {
            self = .base64
        } else if name.hasPrefix("lc.json.") {
            self = .json
        } else {
            return nil
        }
    }

    /// The first subprotocol the client offers that the server speaks (the `Sec-WebSocket-Protocol` header, else the
    /// old .NET SDK's `?subprotocol=`), with its format; protobuf with no name when the client offers none.
    static func negotiate(_ head: HTTPRequestHead) -> (name: String?, format: RTMFormat)? {
        var offered = head.headers[canonicalForm: "Sec-WebSocket-Protocol"].map(String.init)
        if offered.isEmpty, let query = head.uri.split(separator: "?", maxSplits: 1).dropFirst().first {
            for pair in query.split(separator: "&") where pair.hasPrefix("subprotocol=") {
                offered.append(String(pair.dropFirst("subprotocol=".count)).removingPercentEncoding ?? "")
            }
        }
        guard !offered.isEmpty else { return (nil, .protobuf) }
        for name in offered {
            if let format = RTMFormat(subprotocol: name) { return (name, format) }
        }
        return nil
    }

    /// A command as a frame of this format.
    func frame(_ command: RTMCommand) -> WebSocketFrame {
        switch self {
        case .protobuf:
            return WebSocketFrame(fin: true, opcode: .binary, data: ByteBuffer(bytes: command.protobuf))
        case .base64:
            return WebSocketFrame(fin: true, opcode: .text, data: ByteBuffer(string: Data(command.protobuf).base64EncodedString()))
        case .json:
            return WebSocketFrame(fin: true, opcode: .text, data: ByteBuffer(bytes: JSONWriter.bytes(command.json)))
        }
    }

    /// The command in a client's data frame.
    /// - Throws: ``RTMDecodingError`` for a frame that does not hold one in this format.
    func command(in frame: WebSocketFrame) throws -> RTMCommand {
        let bytes = Array(buffer: frame.unmaskedData)
        switch (self, frame.opcode) {
        case (.protobuf, .binary):
            return try RTMCommand(protobuf: bytes)
        case (.base64, .text), (.protobuf, .text):
            guard let text = String(bytes: bytes, encoding: .utf8), let data = Data(base64Encoded: text) else {
                throw RTMDecodingError("a text frame that is not base64")
            }
            return try RTMCommand(protobuf: Array(data))
        case (.json, .text), (.json, .binary):
            guard let json = try? JSONParser.parse(bytes) else { throw RTMDecodingError("a frame that is not JSON") }
            return try RTMCommand(json: json)
        default:
            throw RTMDecodingError("a frame of the wrong kind for the subprotocol")
        }
    }
}
