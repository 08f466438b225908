import CirrusTesting
import Foundation
import Testing

/// The query limits of a running `cirrus serve`: set by flags and `CIRRUS_*` variables, and, over real sockets,
/// expensive regular expressions from many clients at once leave every other client served.
@Suite("Query limits of a live server")
struct QueryLimitsLiveTests {
    /// `cirrus serve` on the store the tests use (SQLite in the sandbox, or a fresh PostgreSQL database).
    static func withServer<T: Sendable>(
        extra: [String] = [], environment: [String: String] = [:], _ body: @Sendable (LiveServer) async throws -> T
    ) async throws -> T {
        try await Sandbox.with { sandbox in
            try await TestStore.withDatabase { databaseURL in
                let port = try FreePort.next()
                var arguments = ["serve", "--host", "127.0.0.1", "--port", String(port), "--data-dir", sandbox.dataDirectory]
                arguments += ["--app-id", Sandbox.keys.appId, "--app-key", Sandbox.keys.appKey, "--master-key", Sandbox.keys.masterKey]
                if let databaseURL { arguments += ["--database", databaseURL] }
                let process = try sandbox.launch(arguments + extra, environment: environment)
                let server = try await LiveServer.ready(process, host: "127.0.0.1", port: port, keys: Sandbox.keys)
                let result = try await body(server)
                try await server.stop()
                return result
            }
        }
    }

    static func whereQuery(_ condition: JSON) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        return "where=" + (JSONWriter.string(condition).addingPercentEncoding(withAllowedCharacters: allowed) ?? "")
    }

    @Test("--max-query-conditions and CIRRUS_MAX_ORDER_KEYS set the limits; a limit of 0 is refused at start")
    func flagsAndVariables() async throws {
        try await Self.withServer(extra: ["--max-query-conditions", "3"], environment: ["CIRRUS_MAX_ORDER_KEYS": "1"]) { server in
            let three = try await server.client.send("GET", "/1.1/classes/Item?" + Self.whereQuery(["a": 1, "b": 2, "c": 3]))
            #expect(three.status == 200, "\(three.bodyText)")
            let four = try await server.client.send("GET", "/1.1/classes/Item?" + Self.whereQuery(["a": 1, "b": 2, "c": 3, "d": 4]))
            #expect(four.status == 400 && four.code == 1, "\(four.bodyText)")
            let order = try await server.client.send("GET", "/1.1/classes/Item?order=a,-b")
            #expect(order.status == 400 && order.code == 1, "\(order.bodyText)")
            let repeated = try await server.client.send("GET", "/1.1/classes/Item?order=a,-a,a")
            #expect(repeated.status == 200, "\(repeated.bodyText)")
        }
        try await Sandbox.with { sandbox in
            let process = try sandbox.launch(["serve", "--data-dir", sandbox.dataDirectory, "--max-query-conditions", "0"])
            #expect(try await process.waitForExit() != .exited(0))
            #expect(process.output.contains("CIRRUS_MAX_QUERY_CONDITIONS must be a positive integer"))
        }
    }

    @Test("eight clients sending (a+)+$ at once are answered within 2 s, and reads and writes of others meanwhile too")
    func backtrackingFromManyClients() async throws {
        try await Self.withServer { server in
            let client = server.client
            let text = String(repeating: "a", count: 1000) + "!"
            #expect(try await client.send("POST", "/1.1/classes/Text", json: ["body": .string(text)]).status == 201)
            let attack = "/1.1/classes/Text?" + Self.whereQuery(["body": ["$regex": "(a+)+$"]])
            let clock = ContinuousClock()
            let start = clock.now
            try await withThrowingTaskGroup(of: (String, Int, Duration).self) { group in
                for _ in 0..<8 {
                    group.addTask {
                        let reply = try await client.send("GET", attack)
                        return ("attack", reply.status, clock.now - start)
                    }
                }
                for index in 0..<4 {
                    group.addTask {
                        let reply = index % 2 == 0
                            ? try await client.send("GET", "/1.1/classes/Text?limit=1")
                            : try await client.send("POST", "/1.1/classes/Other", json: ["n": .int(Int64(index))])
                        return ("normal", reply.status, clock.now - start)
                    }
                }
                for try await (kind, status, elapsed) in group {
                    // SQLite refuses the pattern at its budget; PostgreSQL's regular expressions do not backtrack.
                    #expect(kind == "attack" ? status == 400 || status == 200 : status == 200 || status == 201, "\(kind): \(status)")
                    #expect(elapsed < .seconds(2), "\(kind) answered after \(elapsed)")
                }
            }
        }
    }
}
