@testable import Cirrus
import Foundation
import Testing

/// The client's opening handshake (RFC 6455, 4.1): the upgrade request and the checks of the response.
@Suite("WebSocket handshake")
struct WebSocketHandshakeTests {
    private let key = "dGhlIHNhbXBsZSBub25jZQ=="

    @Test("Sec-WebSocket-Accept is base64(SHA-1(key + GUID)), as in RFC 6455's example")
    func accept() {
        #expect(WebSocketHandshake.accept(forKey: key) == "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=")
    }

    @Test("the request carries the path and query, Host with its port, the upgrade, the key, the subprotocols and extra headers")
    func request() throws {
        let handshake = try WebSocketHandshake(
            url: URL(string: "ws://127.0.0.1:8080/rtm?appId=a%20b")!, protocols: ["lc.json.3", "lc.protobuf2.3"], headers: ["X-Trace": "1"], key: key
        )
        #expect((handshake.host, handshake.port) == ("127.0.0.1", 8080))
        let text = String(decoding: handshake.request, as: UTF8.self)
        #expect(text == """
            GET /rtm?appId=a%20b HTTP/1.1\r
            Host: 127.0.0.1:8080\r
            Upgrade: websocket\r
            Connection: Upgrade\r
            Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r
            Sec-WebSocket-Version: 13\r
            Sec-WebSocket-Protocol: lc.json.3, lc.protobuf2.3\r
            X-Trace: 1\r
            \r

            """)
    }

    @Test("the default port is left out of Host, an IPv6 host is bracketed there and resolved without brackets, no path is /")
    func hosts() throws {
        let plain = try WebSocketHandshake(url: URL(string: "ws://example.com")!, protocols: [], headers: [:], key: key)
        #expect(plain.port == 80 && plain.requestTarget == "/")
        #expect(String(decoding: plain.request, as: UTF8.self).contains("\r\nHost: example.com\r\n"))
        let ipv6 = try WebSocketHandshake(url: URL(string: "ws://[::1]:9000/x")!, protocols: [], headers: [:], key: key)
        #expect(ipv6.host == "::1")
        #expect(String(decoding: ipv6.request, as: UTF8.self).contains("\r\nHost: [::1]:9000\r\n"))
    }

    @Test("a URL that is not ws://, a subprotocol that is not a token, and headers that would break the request are refused")
    func invalidRequests() {
        let cases: [(String, [String], [String: String])] = [
            ("http://127.0.0.1/", [], [:]), ("ws:///path", [], [:]), ("ws://h/", ["a, b"], [:]), ("ws://h/", [], ["X-A": "1\r\nX-B: 2"]),
            ("ws://h/", [], ["Sec-WebSocket-Key": "x"]), ("ws://h/", [], ["Bad Name": "x"]),
        ]
        for (url, protocols, headers) in cases {
            let error = #expect(throws: WebSocketError.self) { try WebSocketHandshake(url: URL(string: url)!, protocols: protocols, headers: headers) }
            guard case .invalidRequest? = error else {
                Issue.record("\(url) \(protocols) \(headers): \(String(describing: error))")
                continue
            }
        }
    }

    @Test("a 101 response with the right accept is taken, with the subprotocol the server chose")
    func accepted() throws {
        let handshake = try WebSocketHandshake(url: URL(string: "ws://h/rtm")!, protocols: ["lc.json.3"], headers: [:], key: key)
        let head = response(["Sec-WebSocket-Protocol: lc.json.3"])
        #expect(try handshake.subprotocol(acceptedIn: head) == "lc.json.3")
        #expect(try handshake.subprotocol(acceptedIn: response([])) == nil)
    }

    @Test("another status, a wrong accept, a subprotocol not offered, an extension or no upgrade fails the handshake")
    func refused() throws {
        let handshake = try WebSocketHandshake(url: URL(string: "ws://h/rtm")!, protocols: ["lc.json.3"], headers: [:], key: key)
        let heads: [(String, [UInt8])] = [
            ("426", Array("HTTP/1.1 426 Upgrade Required\r\nContent-Length: 0".utf8)),
            ("Accept", response([], accept: "AAAA")),
            ("not offered", response(["Sec-WebSocket-Protocol: lc.protobuf2.3"])),
            ("extension", response(["Sec-WebSocket-Extensions: permessage-deflate"])),
            ("Upgrade", Array("HTTP/1.1 101 Switching Protocols\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo=".utf8)),
        ]
        for (expected, head) in heads {
            let error = #expect(throws: WebSocketError.self) { try handshake.subprotocol(acceptedIn: head) }
            guard case .handshakeFailed(let detail)? = error else {
                Issue.record("\(expected): \(String(describing: error))")
                continue
            }
            #expect(detail.contains(expected))
        }
    }

    @Test("the response head ends at its empty line; the bytes after it are frames")
    func headLength() {
        let bytes = Array("HTTP/1.1 101 OK\r\nA: b\r\n\r\n".utf8) + [0x81, 0x00]
        #expect(WebSocketHandshake.headLength(in: bytes[...]) == bytes.count - 2)
        #expect(WebSocketHandshake.headLength(in: bytes[..<20]) == nil)
    }

    /// A 101 response head for ``key`` with `fields` added.
    private func response(_ fields: [String], accept: String = "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=") -> [UInt8] {
        let lines = ["HTTP/1.1 101 Switching Protocols", "upgrade: WebSocket", "Connection: keep-alive, Upgrade", "Sec-WebSocket-Accept: \(accept)"] + fields
        return Array(lines.joined(separator: "\r\n").utf8)
    }
}
