import CirrusTesting
import Foundation
import Testing

@Suite("Database URLs a live server cannot use")
struct DatabaseURLTests {
    @Test(
        "a postgres:// database stops the server with a clear message, before any keys are generated",
        arguments: [
            (["--database", "postgres://cirrus:secret@127.0.0.1:5432/cirrus"], [String: String]()),
            ([], ["CIRRUS_DATABASE_URL": "postgresql://cirrus@127.0.0.1/cirrus"]),
        ]
    )
    func postgresIsRefused(extra: [String], environment: [String: String]) async throws {
        try await Sandbox.with { sandbox in
            let port = try FreePort.next()
            let process = try sandbox.launch(
                ["serve", "--port", String(port), "--data-dir", sandbox.dataDirectory] + extra, environment: environment
            )
            let termination = try await process.waitForExit()
            #expect(termination != .exited(0))
            #expect(process.output.contains("PostgreSQL databases are not supported by this build yet"))
            #expect(!process.output.contains("secret"))
            #expect(!FileManager.default.fileExists(atPath: sandbox.path("data/keys.json")))
            #expect(RawConnection.isRefused(port: port))
        }
    }
}
