import CirrusServer
import CirrusTesting
import Foundation
import Testing

/// The HTTP transport's limits against an in-process server on a real socket (on the store `CIRRUS_TEST_STORE`
/// names): request-head sizes, bodies checked before they are read, and the timeouts of slow clients.
@Suite("HTTP transport limits")
struct TransportLimitsTests {
    /// Small limits, so that the tests reach them quickly; client timeouts long enough for a busy machine.
    static let limits: @Sendable (inout ServerConfiguration) -> Void = { configuration in
        configuration.maximumBodySize = 64 * 1024
        configuration.transport.maximumURLSize = 4096
        configuration.transport.maximumHeaderSize = 8192
        configuration.transport.maximumUnauthenticatedBodySize = 4096
    }

    /// The limits, with client timeouts of one second.
    static let timeouts: @Sendable (inout ServerConfiguration) -> Void = { configuration in
        limits(&configuration)
        configuration.transport.headerTimeout = .seconds(1)
        configuration.transport.bodyTimeout = .seconds(1)
        configuration.transport.idleTimeout = .seconds(1)
    }

    /// Sends `text` while reading the reply: a client still sending a large request when the server has answered
    /// it (and, after a while, closed the connection) may fail to send the rest, which is not the server's fault.
    static func exchange(_ connection: RawConnection, _ text: String) async -> (reply: RawReply?, elapsed: Duration) {
        let sending = Task { try? await connection.transmit(text) }
        let result = await connection.readUntilClosed()
        _ = await sending.value
        return result
    }

    /// What a refusal looks like in each dialect: its path prefix and the error code of a 414 or 431.
    static let dialects: [(prefix: String, headers: [String], code: Int64)] = [
        ("/1.1/classes/Post", [], 414), ("/parse/classes/Post", [], 107), ("/1/classes/Post", ["X-Bmob-Application-Id: x"], 107),
        ("/2/tables/Post", [], 107),
    ]

    @Test("a request line beyond the URL limit is answered 414 in the caller's dialect, an 8 MB one at once", arguments: [5000, 8 * 1024 * 1024])
    func longURL(_ length: Int) async throws {
        try await LiveTestServer.with(configure: Self.limits) { server in
            for dialect in Self.dialects {
                let connection = try RawConnection(server)
                let path = dialect.prefix + "?where=" + String(repeating: "a", count: length)
                let code = dialect.prefix.hasPrefix("/1.1") ? 414 : 107
                let head = "GET \(path) HTTP/1.1\r\nHost: x\r\n" + dialect.headers.map { $0 + "\r\n" }.joined() + "\r\n"
                let (reply, elapsed) = await Self.exchange(connection, head)
                #expect(reply?.status == 414, "\(dialect.prefix)")
                #expect(reply?.json["code"] == .int(Int64(code)), "\(dialect.prefix): \(reply?.body ?? "")")
                #expect(elapsed < .seconds(10))
            }
            // The server still answers others.
            let fine = try RawConnection(server)
            try await fine.transmit(server.head("GET", "/1.1/date", headers: ["Connection: close"]))
            #expect(await fine.readUntilClosed().reply?.status == 200)
        }
    }

    @Test("a header section beyond the limit is answered 431, an 8 MB header at once", arguments: [9000, 8 * 1024 * 1024])
    func largeHeaders(_ length: Int) async throws {
        try await LiveTestServer.with(configure: Self.limits) { server in
            let start = ContinuousClock.now
            let connection = try RawConnection(server)
            let head = server.head("GET", "/1.1/classes/Post", headers: ["X-Padding: " + String(repeating: "p", count: length)])
            let (reply, _) = await Self.exchange(connection, head)
            #expect(reply?.status == 431)
            #expect(reply?.json["code"] == 431)
            #expect(ContinuousClock.now - start < .seconds(10))
            // Many small headers count together.
            let many = try RawConnection(server)
            try await many.transmit(server.head("GET", "/1.1/classes/Post", headers: (0..<1000).map { "X-H\($0): 0123456789" }))
            #expect(await many.readUntilClosed().reply?.status == 431)
        }
    }

    @Test("a request line and headers just within the limits are served")
    func withinLimits() async throws {
        try await LiveTestServer.with(configure: Self.limits) { server in
            let head = server.head("GET", "/1.1/classes/Post?limit=1", headers: ["Connection: close"])
            // The request line is exactly 4096 bytes; the header section just under 8192.
            let line = "GET /1.1/classes/Post?limit=1&pad= HTTP/1.1"
            let path = "/1.1/classes/Post?limit=1&pad=" + String(repeating: "x", count: 4096 - line.utf8.count)
            let connection = try RawConnection(server)
            let headers = head.split(separator: "\r\n").dropFirst().joined(separator: "\r\n")
            let padding = "X-Padding: " + String(repeating: "p", count: 8000 - headers.utf8.count - 13)
            try await connection.transmit("GET \(path) HTTP/1.1\r\n\(headers)\r\n\(padding)\r\n\r\n")
            let reply = await connection.readUntilClosed().reply
            #expect(reply?.status == 200, "\(reply?.body ?? "no reply")")
            #expect(reply?.json["results"] == [])
        }
    }

    @Test("a declared body beyond the limit is refused from its Content-Length, before any of it is sent")
    func declaredLength() async throws {
        try await LiveTestServer.with(configure: Self.limits) { server in
            let connection = try RawConnection(server)
            try await connection.transmit(server.head("POST", "/1.1/classes/Post", headers: ["Content-Type: application/json", "Content-Length: 20000000"]))
            let (reply, elapsed) = await connection.readUntilClosed()
            #expect(reply?.status == 413)
            #expect(reply?.json["code"] == 413)
            #expect(elapsed < .seconds(10))
        }
    }

    @Test("a request without credentials is refused before its body is read")
    func credentialsFirst() async throws {
        try await LiveTestServer.with(configure: Self.limits) { server in
            // No credentials, a 20 MB body announced and never sent: the answer comes without waiting for it.
            for (method, status) in [("PUT", 401), ("GET", 401), ("POST", 413)] {
                let connection = try RawConnection(server)
                try await connection.transmit("\(method) /1.1/classes/Post/0123 HTTP/1.1\r\nHost: x\r\nContent-Length: 20000000\r\n\r\n")
                let (reply, elapsed) = await connection.readUntilClosed()
                #expect(reply?.status == status, "\(method): \(reply?.body ?? "no reply")")
                #expect(elapsed < .seconds(10))
            }
            // Wrong credentials in the headers: 401 before the body, whatever its size.
            let wrong = try RawConnection(server)
            try await wrong.transmit("POST /1.1/classes/Post HTTP/1.1\r\nHost: x\r\nX-LC-Id: \(server.keys.appId)\r\nX-LC-Key: wrong\r\nContent-Length: 60000\r\n\r\n")
            #expect(await wrong.readUntilClosed().reply?.status == 401)
        }
    }

    @Test("credentials in a small body (the JavaScript SDKs' CORS workaround) still work; a large one is refused")
    func credentialsInBody() async throws {
        try await LiveTestServer.with(configure: Self.limits) { server in
            func send(_ padding: Int) async throws -> RawReply? {
                let body = JSONWriter.string([
                    "_ApplicationId": .string(server.keys.appId), "_ApplicationKey": .string(server.keys.appKey),
                    "text": .string(String(repeating: "t", count: padding)),
                ])
                let connection = try RawConnection(server)
                try await connection.transmit("POST /1.1/classes/Post HTTP/1.1\r\nHost: x\r\nContent-Type: text/plain\r\nContent-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n" + body)
                return await connection.readUntilClosed().reply
            }
            let small = try await send(100)
            let large = try await send(5000)
            #expect(small?.status == 201, "\(small?.body ?? "no reply")")
            #expect(large?.status == 413)
        }
    }

    @Test("a chunked body is counted as it streams and cut off at the limit")
    func chunkedBody() async throws {
        try await LiveTestServer.with(configure: Self.limits) { server in
            let connection = try RawConnection(server)
            try await connection.transmit(server.head("POST", "/1.1/classes/Post", headers: ["Content-Type: application/json", "Transfer-Encoding: chunked"]))
            let chunk = String(repeating: "x", count: 16 * 1024)
            // 5 chunks of 16 KB pass the 64 KB limit; the body never ends.
            try await connection.transmit(String(repeating: String(chunk.utf8.count, radix: 16) + "\r\n" + chunk + "\r\n", count: 5))
            let (reply, elapsed) = await connection.readUntilClosed()
            #expect(reply?.status == 413)
            #expect(elapsed < .seconds(10))
        }
    }

    @Test("a request head sent too slowly is answered 408 after the header timeout, and the connection closed")
    func slowHead() async throws {
        try await LiveTestServer.with(configure: Self.timeouts) { server in
            let connection = try RawConnection(server)
            try await connection.transmit("GET /1.1/classes/Post HTTP/1.1\r\nHost: x\r\n")
            let (reply, elapsed) = await connection.readUntilClosed()
            #expect(reply?.status == 408)
            #expect(reply?.json["code"] == 408)
            #expect(elapsed >= .milliseconds(800) && elapsed < .seconds(10))
        }
    }

    @Test("a body that stops half-way is answered 408 after the body timeout, and the connection closed")
    func stalledBody() async throws {
        try await LiveTestServer.with(configure: Self.timeouts) { server in
            let connection = try RawConnection(server)
            try await connection.transmit(server.head("POST", "/1.1/classes/Post", headers: ["Content-Type: application/json", "Content-Length: 100"]) + "{\"a\":")
            let (reply, elapsed) = await connection.readUntilClosed()
            #expect(reply?.status == 408)
            #expect(elapsed >= .milliseconds(800) && elapsed < .seconds(10))
        }
    }

    @Test("an idle keep-alive connection, or one that never sends, is closed after the idle timeout")
    func idleConnections() async throws {
        try await LiveTestServer.with(configure: Self.timeouts) { server in
            let used = try RawConnection(server)
            try await used.transmit(server.head("GET", "/1.1/date"))
            let (reply, elapsed) = await used.readUntilClosed()
            #expect(reply?.status == 200)
            #expect(elapsed >= .milliseconds(800) && elapsed < .seconds(10))
            let silent = try RawConnection(server)
            let (nothing, waited) = await silent.readUntilClosed()
            #expect(nothing == nil)
            #expect(waited >= .milliseconds(800) && waited < .seconds(10))
        }
    }

    @Test("beyond the connection limit, the connection idle the longest is closed to make room for a new client")
    func connectionLimitMakesRoom() async throws {
        try await LiveTestServer.with(configure: { Self.limits(&$0); $0.transport.maximumConnections = 4 }) { server in
            let idle = try (0..<4).map { _ in try RawConnection(server) }
            // Each read ends when the server closes its connection: for one of them when it makes room, for the others
            // when the server stops.
            let (closed, closing) = AsyncStream<Bool>.makeStream()
            for connection in idle { Task { closing.yield(await connection.readUntilClosed().reply == nil) } }
            try await Task.sleep(for: .seconds(1))
            let (reply, _) = await Self.exchange(try RawConnection(server), server.head("GET", "/1.1/date", headers: ["Connection: close"]))
            #expect(reply?.status == 200)
            // One of the idle connections was closed by the server, long before its idle timeout.
            let start = ContinuousClock.now
            var first = closed.makeAsyncIterator()
            #expect(await first.next() == true)
            #expect(ContinuousClock.now - start < .seconds(10))
        }
    }

    @Test("with every connection in the middle of a request, a new one is answered 503 and closed; the others are served")
    func connectionLimitRefuses() async throws {
        try await LiveTestServer.with(configure: { Self.limits(&$0); $0.transport.maximumConnections = 2 }) { server in
            let busy = try (0..<2).map { _ in try RawConnection(server) }
            // Heads without their final empty line: the requests have begun.
            // (`"\r\n"` is one Character: dropping the last one leaves one line end.)
            for connection in busy { try await connection.transmit(String(server.head("GET", "/1.1/date", headers: ["Connection: close"]).dropLast())) }
            try await Task.sleep(for: .seconds(1))
            let (refused, elapsed) = await Self.exchange(try RawConnection(server), server.head("GET", "/1.1/date"))
            #expect(refused?.status == 503)
            #expect(refused?.json["code"] == 503)
            #expect(elapsed < .seconds(10))
            for connection in busy {
                try await connection.transmit("\r\n")
                #expect(await connection.readUntilClosed().reply?.status == 200)
            }
        }
    }

    @Test("a client that stops reading its answer is disconnected after the body timeout")
    func stalledReader() async throws {
        try await LiveTestServer.with(configure: { $0.transport.bodyTimeout = .seconds(1) }) { server in
            // 12 MB of objects: more than the socket buffers between the server and the client hold.
            let object: JSON = ["text": .string(String(repeating: "t", count: 30_000))]
            for _ in 0..<8 {
                let requests = JSON.array(Array(repeating: ["method": "POST", "path": "/1.1/classes/Big", "body": object], count: 50))
                let connection = try RawConnection(server)
                let body = JSONWriter.string(["requests": requests])
                let head = server.head("POST", "/1.1/batch", headers: ["Content-Type: application/json", "Content-Length: \(body.utf8.count)", "Connection: close"])
                let reply = await Self.exchange(connection, head + body).reply
                #expect(reply?.status == 200, "\(String(describing: reply?.status)) \(reply?.body.prefix(300) ?? "")")
            }
            let reader = try RawConnection(server)
            try await reader.transmit(server.head("GET", "/1.1/classes/Big?limit=1000"))
            // Once the answer has begun (reading the 12 MB may take a loaded machine seconds), the client stops reading.
            let first = await RawConnection.blocking { reader.readSome() }
            #expect(first.hasPrefix("HTTP/1.1 200"), "\(first.prefix(100))")
            try await Task.sleep(for: .seconds(4))
            // The answer stopped where the buffers filled, and the server closed the connection: the read ends with
            // part of it, long before the idle timeout (a minute).
            let start = ContinuousClock.now
            let rest = await RawConnection.blocking { reader.readToEnd() }
            #expect(ContinuousClock.now - start < .seconds(30))
            #expect(first.utf8.count + rest.utf8.count < 12_000_000)
        }
    }
}
