@testable import Cirrus
import CirrusTesting
import Foundation
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
#if canImport(Glibc)
import Glibc
#endif

/// The SDK's WebSocket client against the server's LiveQuery socket (LeanCloud's realtime protocol, `lc.json.3`).
@Suite("WebSocket client on a live server", .timeLimit(.minutes(2)))
struct WebSocketLiveTests {
    @Test("a lc.json.3 socket gets its subprotocol, the heartbeat, an echo and a login answered")
    func conversation() async throws {
        try await withLiveApp { _, server in
            let connection = try await WebSocketConnector.connect(to: try await Self.socketURL(server), protocols: ["lc.json.3"], timeout: 10)
            defer { connection.close(code: 1000, reason: "done") }
            #expect(connection.subprotocol == "lc.json.3")
            try await connection.send(.text("{}"))
            #expect(try await connection.receive() == .text("{}"))
            try await connection.send(.text(#"{"cmd":"echo","i":1}"#))
            let echo = try await Self.command(connection.receive())
            #expect(echo["cmd"] as? String == "echo" && echo["i"] as? Int == 1)
            try await connection.send(.text(#"{"cmd":"login","appId":"\#(server.keys.appId)","installationId":"abc","service":1,"i":2}"#))
            let login = try await Self.command(connection.receive())
            #expect(login["cmd"] as? String == "loggedin" && login["i"] as? Int == 2)
        }
    }

    @Test("a frame the server cannot read makes it close with 4114, which receive throws")
    func serverClose() async throws {
        try await withLiveApp { _, server in
            let connection = try await WebSocketConnector.connect(to: try await Self.socketURL(server), protocols: ["lc.json.3"], timeout: 10)
            try await connection.send(.text("not json"))
            let error = await #expect(throws: WebSocketError.self) { try await connection.receive() }
            guard case .closed(let code, _)? = error else {
                Issue.record("\(String(describing: error))")
                return
            }
            #expect(code == 4114)
            connection.close(code: 1000, reason: "")
        }
    }

    @Test("large and many messages cross in both directions, one after another")
    func volume() async throws {
        try await withLiveApp { _, server in
            let connection = try await WebSocketConnector.connect(to: try await Self.socketURL(server), protocols: ["lc.json.3"], timeout: 10)
            defer { connection.close(code: 1000, reason: "") }
            // Padding pushes the frames past 125 bytes, into the 16-bit length form.
            let padding = String(repeating: "x", count: 3_000)
            for index in 1...50 {
                try await connection.send(.text(#"{"cmd":"echo","i":\#(index),"pad":"\#(padding)"}"#))
            }
            for index in 1...50 {
                #expect(try await Self.command(connection.receive())["i"] as? Int == index)
            }
        }
    }

    @Test("a wrong path, the API's port, wss:// without TLS, a closed port and a silent server fail with a clear error, not a hang")
    func failedHandshakes() async throws {
        try await withLiveApp { _, server in
            let socket = try await Self.socketURL(server)
            let wrongPath = try #require(URL(string: socket.absoluteString.replacingOccurrences(of: "/rtm", with: "/nowhere")))
            // The listener closes an upgrade to a path it does not serve without answering it.
            await Self.expectHandshakeFailure(wrongPath, containing: "closed the connection")
            let apiPort = try #require(URL(string: server.baseURL.replacingOccurrences(of: "http://", with: "ws://") + "/rtm"))
            await Self.expectHandshakeFailure(apiPort, containing: "404")
            // Without a libcurl built with WebSockets (Linux), wss:// fails the handshake; with one, TLS fails on a plain port.
            let secure = try #require(URL(string: socket.absoluteString.replacingOccurrences(of: "ws://", with: "wss://")))
            await #expect(throws: WebSocketError.self) { try await WebSocketConnector.connect(to: secure, timeout: 10) }
            #if canImport(Glibc)
            try await Self.withBoundPort(listening: false) { port in
                let error = await #expect(throws: WebSocketError.self) {
                    try await WebSocketConnector.connect(to: URL(string: "ws://127.0.0.1:\(port)/rtm")!, timeout: 5)
                }
                guard case .unreachable(let detail)? = error else {
                    Issue.record("\(String(describing: error))")
                    return
                }
                #expect(detail.contains("refused"))
            }
            try await Self.withBoundPort(listening: true) { port in
                let started = ContinuousClock.now
                await #expect(throws: WebSocketError.timedOut) {
                    try await WebSocketConnector.connect(to: URL(string: "ws://127.0.0.1:\(port)/rtm")!, timeout: 0.3)
                }
                #expect(ContinuousClock.now - started < .seconds(5))
            }
            #endif
        }
    }

    @Test("a URL that is not ws:// or wss:// is refused before any connection")
    func invalidScheme() async {
        await #expect(throws: WebSocketError.invalidRequest("http://127.0.0.1/ is not a ws:// or wss:// URL")) {
            try await WebSocketConnector.connect(to: URL(string: "http://127.0.0.1/")!)
        }
    }

    /// The socket's URL as the RTM router gives it (`GET /v1/route`: `{server, secondary, ttl}`).
    static func socketURL(_ server: LiveTestServer) async throws -> URL {
        let (data, _) = try await URLSession.shared.data(from: URL(string: server.baseURL + "/v1/route?appId=\(server.keys.appId)")!)
        let route = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        return try #require((route["server"] as? String).flatMap(URL.init(string:)))
    }

    /// A text message's JSON object.
    static func command(_ message: WebSocketMessage) throws -> [String: Any] {
        guard case .text(let text) = message else { throw WebSocketError.handshakeFailed("a binary message") }
        return try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    /// Expects connecting to `url` to fail the handshake, the detail containing `text`, within the timeout.
    static func expectHandshakeFailure(_ url: URL, containing text: String) async {
        let error = await #expect(throws: WebSocketError.self) {
            try await WebSocketConnector.connect(to: url, protocols: ["lc.json.3"], timeout: 10)
        }
        guard case .handshakeFailed(let detail)? = error else {
            Issue.record("\(url): \(String(describing: error))")
            return
        }
        #expect(detail.contains(text), "\(detail)")
    }

    #if canImport(Glibc)
    /// Runs `body` with a loopback port bound by a socket that listens (and never accepts) or not (connections are
    /// refused).
    static func withBoundPort(listening: Bool, _ body: (Int) async throws -> Void) async throws {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        try #require(descriptor >= 0)
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, length) == 0 && getsockname(descriptor, $0, &length) == 0 }
        }
        try #require(bound)
        if listening { try #require(listen(descriptor, 4) == 0) }
        try await body(Int(UInt16(bigEndian: address.sin_port)))
    }
    #endif
}
