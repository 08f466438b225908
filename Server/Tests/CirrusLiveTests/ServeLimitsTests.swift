import CirrusTesting
import Foundation
import Testing

/// The limit settings of `cirrus serve`, from flags and `CIRRUS_*` variables, and the bounded log of a live server.
@Suite("Limits of cirrus serve: flags, variables and the log bound")
struct ServeLimitsTests {
    @Test("the size and timeout flags and variables reach the server")
    func settings() async throws {
        try await Sandbox.with { sandbox in
            let port = try FreePort.next()
            let keys = Sandbox.keys
            let process = try sandbox.launch([
                "serve", "--port", String(port), "--data-dir", sandbox.dataDirectory, "--app-id", keys.appId, "--app-key", keys.appKey,
                "--master-key", keys.masterKey, "--max-url-size", "200", "--max-body-size", "1000",
            ], environment: ["CIRRUS_HEADER_TIMEOUT": "0.5", "CIRRUS_MAX_HEADER_SIZE": "1000"])
            let server = try await LiveServer.ready(process, host: "127.0.0.1", port: port, keys: keys)
            let long = try await server.client.send("GET", "/1.1/classes/Note?where=" + String(repeating: "a", count: 300))
            #expect(long.status == 414)
            let large = try await server.client.send("POST", "/1.1/classes/Note", json: ["text": .string(String(repeating: "x", count: 2000))])
            #expect(large.status == 413)
            let headers = Dictionary(uniqueKeysWithValues: server.client.appKeyHeaders.map { ($0.key, $0.value) } + [("X-Padding", String(repeating: "p", count: 1200))])
            #expect(try await server.client.send("GET", "/1.1/classes/Note", headers: headers).status == 431)
            let slow = try RawConnection(port: port)
            try slow.write("GET /1.1/classes/Note HTTP/1.1\r\n")
            #expect(RawReply(slow.readToEnd())?.status == 408)
            try await server.stopCleanly()
        }
    }

    @Test("an invalid limit is refused at start with the variable's name")
    func invalidSetting() async throws {
        try await Sandbox.with { sandbox in
            let process = try sandbox.launch(["serve", "--data-dir", sandbox.dataDirectory], environment: ["CIRRUS_REQUEST_TIMEOUT": "soon"])
            #expect(try await process.waitForExit() != .exited(0))
            #expect(process.output.contains("CIRRUS_REQUEST_TIMEOUT"))
        }
    }

    @Test("no log line grows with what a client sends: a request with a 30 KB URL logs at most the line bound")
    func boundedLog() async throws {
        try await Sandbox.with { sandbox in
            let server = try await sandbox.startServer(extra: ["--log-level", "debug", "--max-log-line", "1024"])
            let path = "/1.1/classes/Note?where=" + String(repeating: "w", count: 30_000)
            _ = try await server.client.send("GET", path)
            // A 500 carries the error's description, which may quote a whole statement: cut as well.
            _ = try await server.client.send("GET", "/1.1/classes/" + String(repeating: "C", count: 30_000))
            try await server.stopCleanly()
            let lines = server.process.output.split(separator: "\n")
            let longest = lines.map(\.utf8.count).max() ?? 0
            #expect(longest < 1024 + 600, "a log line of \(longest) bytes")
            #expect(lines.contains { $0.contains("request started") && $0.contains("more bytes cut]") })
        }
    }
}
