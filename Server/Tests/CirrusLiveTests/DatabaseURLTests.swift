import CirrusTesting
import Foundation
import Testing

@Suite("Database URLs a live server cannot use")
struct DatabaseURLTests {
    @Test(
        "an unreachable postgres:// database stops the server after its connect_timeout (15 s by default) with a clear message without the password, before any keys are generated",
        arguments: [
            (["--database", "postgres://cirrus:secret@127.0.0.1:PORT/cirrus"], [String: String](), "15.0 seconds"),
            ([], ["CIRRUS_DATABASE_URL": "postgresql://cirrus:secret@127.0.0.1:PORT/cirrus"], "15.0 seconds"),
            (["--database", "postgres://cirrus:secret@127.0.0.1:PORT/cirrus?connect_timeout=2"], [:], "2.0 seconds"),
        ]
    )
    func unreachablePostgres(extra: [String], environment: [String: String], deadline: String) async throws {
        try await Sandbox.with { sandbox in
            let (port, nobody) = (try FreePort.next(), String(try FreePort.next()))
            let process = try sandbox.launch(
                ["serve", "--port", String(port), "--data-dir", sandbox.dataDirectory] + extra.map { $0.replacingOccurrences(of: "PORT", with: nobody) },
                environment: environment.mapValues { $0.replacingOccurrences(of: "PORT", with: nobody) }
            )
            let termination = try await process.waitForExit(timeout: .seconds(90))
            #expect(termination != .exited(0))
            #expect(process.output.contains("PostgreSQL at 127.0.0.1:\(nobody)/cirrus did not accept a connection within \(deadline)"), "\(process.output)")
            #expect(!process.output.contains("secret"))
            #expect(!FileManager.default.fileExists(atPath: sandbox.path("data/keys.json")))
            #expect(RawConnection.isRefused(port: port))
        }
    }

    @Test("malformed database URLs stop the server with what is wrong", arguments: [
        ("postgres://127.0.0.1:5432/cirrus", "needs a user"),
        ("postgres://cirrus@127.0.0.1:5432", "needs a database name"),
        ("postgres://cirrus@127.0.0.1/cirrus?sslmode=maybe", "Unknown sslmode 'maybe'"),
        ("postgres://cirrus@127.0.0.1/cirrus?connect_timeout=soon", "connect_timeout must be a whole number of seconds"),
        ("mysql://cirrus:secret@127.0.0.1/cirrus", "Unrecognised database URL"),
    ])
    func malformed(url: String, message: String) async throws {
        try await Sandbox.with { sandbox in
            let process = try sandbox.launch(["serve", "--port", String(try FreePort.next()), "--data-dir", sandbox.dataDirectory, "--database", url])
            #expect(try await process.waitForExit() != .exited(0))
            #expect(process.output.contains(message), "\(process.output)")
            #expect(!process.output.contains("secret"))
        }
    }

    @Test("a replica without a PostgreSQL database, or with a malformed URL, stops the server with what is wrong")
    func replicaNeedsPostgres() async throws {
        try await Sandbox.with { sandbox in
            for (arguments, message) in [
                (["--database-replica", "postgres://cirrus@127.0.0.1/cirrus"], "A replica needs a postgres:// database."),
                (["--database", "postgres://cirrus@127.0.0.1:1/cirrus", "--database-replica", "postgres://127.0.0.1/cirrus"], "needs a user"),
            ] {
                let process = try sandbox.launch(["serve", "--port", String(try FreePort.next()), "--data-dir", sandbox.dataDirectory] + arguments)
                #expect(try await process.waitForExit() != .exited(0))
                #expect(process.output.contains(message), "\(process.output)")
            }
        }
    }
}
