import CirrusTesting
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

@Suite("Graceful shutdown of a live server")
struct GracefulShutdownTests {
    /// A create whose head and first half of body are sent, the rest held back until `finish()`.
    struct HeldRequest {
        let connection: RawConnection
        let rest: String

        init(port: Int, keys: AppKeys, index: Int) throws {
            let body = JSONWriter.string(["index": .int(Int64(index)), "padding": .string(String(repeating: "p", count: 64))])
            let head = "POST /1.1/classes/Inflight HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nX-LC-Id: \(keys.appId)\r\n"
                + "X-LC-Key: \(keys.appKey)\r\nContent-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n"
                + "Connection: close\r\n\r\n"
            let split = body.index(body.startIndex, offsetBy: body.count / 2)
            connection = try RawConnection(port: port)
            try connection.write(head + body[..<split])
            rest = String(body[split...])
        }

        /// Sends the rest of the body and reads the reply.
        func finish() throws -> RawReply? {
            try connection.write(rest)
            return RawReply(connection.readToEnd())
        }
    }

    @Test("SIGTERM lets requests in flight complete, then the store is closed and the process exits 0")
    func inFlightRequestsComplete() async throws {
        try await Sandbox.with { sandbox in
            let server = try await sandbox.startServer(extra: ["--log-level", "debug"])
            let held = try (0..<3).map { try HeldRequest(port: server.port, keys: Sandbox.keys, index: $0) }
            try await Self.waitUntilStarted(held.count, path: "/1.1/classes/Inflight", in: server.process)

            server.process.send(SIGTERM)
            try await Self.waitUntilRefused(port: server.port)
            #expect(server.process.isRunning)

            var ids: [String] = []
            for (index, request) in held.enumerated() {
                let reply = try #require(try request.finish())
                #expect(reply.status == 201)
                let json = try JSONParser.parse(reply.body)
                ids.append(try #require(json["objectId"]?.stringValue, "reply \(index): \(reply.body)"))
            }
            #expect(try await server.process.waitForExit() == .exited(0))
            #expect(server.process.output.contains("store closed"))
            #expect(Self.size(of: sandbox.path("data/cirrus.sqlite-wal")) == 0)

            // The closed store left every write in the database file itself: a copy of that file alone serves them.
            try FileManager.default.createDirectory(atPath: sandbox.path("copy"), withIntermediateDirectories: true)
            try FileManager.default.copyItem(atPath: sandbox.path("data/cirrus.sqlite"), toPath: sandbox.path("copy/cirrus.sqlite"))
            let restarted = try await sandbox.startServer(dataDirectory: sandbox.path("copy"))
            for (index, id) in ids.enumerated() {
                let fetched = try await restarted.client.send("GET", "/1.1/classes/Inflight/\(id)")
                #expect(fetched.json["index"] == .int(Int64(index)))
            }
            try await restarted.stop()
        }
    }

    /// Waits until the server's debug log shows `count` requests to `path` started: their heads were read and they
    /// are in flight, waiting for the rest of their bodies.
    static func waitUntilStarted(_ count: Int, path: String, in process: ChildProcess) async throws {
        let deadline = ContinuousClock.now + .seconds(60)
        func started() -> Int {
            process.output.split(separator: "\n").filter { $0.contains("request started") && $0.contains("path=\(path)") }.count
        }
        while started() < count {
            guard ContinuousClock.now < deadline else {
                throw LiveTestError(description: "The server did not start \(count) requests within a minute:\n\(process.output)")
            }
            try await Task.sleep(for: .milliseconds(20))
        }
    }

    @Test("SIGTERM on an idle server exits 0 after closing the store")
    func idleShutdown() async throws {
        try await Sandbox.with { sandbox in
            let server = try await sandbox.startServer()
            let created = try await server.client.send("POST", "/1.1/classes/Note", json: ["text": "kept"])
            #expect(created.status == 201)
            try await server.stopCleanly()
            #expect(server.process.output.contains("store closed"))
        }
    }

    /// The size of a file in bytes; 0 when it does not exist.
    static func size(of path: String) -> Int {
        ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? NSNumber)?.intValue ?? 0
    }

    /// Waits until the server no longer accepts connections: it has begun shutting down.
    static func waitUntilRefused(port: Int) async throws {
        let deadline = ContinuousClock.now + .seconds(60)
        while !RawConnection.isRefused(port: port) {
            guard ContinuousClock.now < deadline else { throw LiveTestError(description: "The server kept accepting connections.") }
            try await Task.sleep(for: .milliseconds(20))
        }
    }
}
