import CirrusSQLStore
@testable import CirrusSQLite
import CirrusTesting
import Foundation
import Testing

@Suite("Configuration of a live server from flags and CIRRUS_* variables")
struct ConfigurationTests {
    static let environmentKeys = AppKeys(appId: "env-app-id", appKey: "env-app-key", masterKey: "env-master-key")
    static let flagKeys = AppKeys(appId: "flag-app-id", appKey: "flag-app-key", masterKey: "flag-master-key")

    /// An object whose JSON is a little over `bytes` long.
    static func object(ofAbout bytes: Int) -> JSON {
        ["text": .string(String(repeating: "x", count: bytes))]
    }

    static func environment(host: String, port: Int, dataDirectory: String, maximumObjectSize: Int) -> [String: String] {
        [
            "CIRRUS_HOST": host, "CIRRUS_PORT": String(port), "CIRRUS_DATA_DIR": dataDirectory,
            "CIRRUS_APP_ID": environmentKeys.appId, "CIRRUS_APP_KEY": environmentKeys.appKey,
            "CIRRUS_MASTER_KEY": environmentKeys.masterKey, "CIRRUS_MAX_OBJECT_SIZE": String(maximumObjectSize),
        ]
    }

    @Test("CIRRUS_HOST, CIRRUS_PORT, CIRRUS_DATA_DIR, the key variables and CIRRUS_MAX_OBJECT_SIZE configure the server")
    func environmentOnly() async throws {
        try await Sandbox.with { sandbox in
            let port = try FreePort.next()
            let environment = Self.environment(host: "127.0.0.2", port: port, dataDirectory: sandbox.path("env-data"), maximumObjectSize: 2000)
            let process = try sandbox.launch(["serve"], environment: environment)
            let server = try await LiveServer.ready(process, host: "127.0.0.2", port: port, keys: Self.environmentKeys)

            #expect(RawConnection.isRefused(host: "127.0.0.1", port: port))
            #expect(FileManager.default.fileExists(atPath: sandbox.path("env-data/cirrus.sqlite")))
            #expect(!FileManager.default.fileExists(atPath: sandbox.path("env-data/keys.json")))
            let small = try await server.client.send("POST", "/1.1/classes/Note", json: Self.object(ofAbout: 1000))
            #expect(small.status == 201)
            let large = try await server.client.send("POST", "/1.1/classes/Note", json: Self.object(ofAbout: 3000))
            #expect(large.code == 116)
            try await server.stopCleanly()
        }
    }

    @Test("a flag wins over the CIRRUS_* variable of the same setting")
    func flagsWin() async throws {
        try await Sandbox.with { sandbox in
            let environmentPort = try FreePort.next()
            let flagPort = try FreePort.next()
            let environment = Self.environment(
                host: "127.0.0.2", port: environmentPort, dataDirectory: sandbox.path("env-data"), maximumObjectSize: 2000
            )
            let keys = Self.flagKeys
            let process = try sandbox.launch([
                "serve", "--host", "127.0.0.1", "--port", String(flagPort), "--data-dir", sandbox.path("flag-data"),
                "--app-id", keys.appId, "--app-key", keys.appKey, "--master-key", keys.masterKey, "--max-object-size", "8000",
            ], environment: environment)
            let server = try await LiveServer.ready(process, host: "127.0.0.1", port: flagPort, keys: keys)

            #expect(RawConnection.isRefused(host: "127.0.0.2", port: environmentPort))
            #expect(FileManager.default.fileExists(atPath: sandbox.path("flag-data/cirrus.sqlite")))
            #expect(!FileManager.default.fileExists(atPath: sandbox.path("env-data")))
            let medium = try await server.client.send("POST", "/1.1/classes/Note", json: Self.object(ofAbout: 3000))
            #expect(medium.status == 201)
            let large = try await server.client.send("POST", "/1.1/classes/Note", json: Self.object(ofAbout: 9000))
            #expect(large.code == 116)
            let environmentKeys = Self.environmentKeys
            let withEnvironmentKeys = try await server.client.send(
                "GET", "/1.1/classes/Note", headers: ["X-LC-Id": environmentKeys.appId, "X-LC-Key": environmentKeys.appKey]
            )
            #expect(withEnvironmentKeys.status == 401)
            try await server.stopCleanly()
        }
    }

    @Test("a CIRRUS_PORT that is not a number stops the server with a message naming the variable")
    func invalidPort() async throws {
        try await Sandbox.with { sandbox in
            let process = try sandbox.launch(["serve", "--data-dir", sandbox.dataDirectory], environment: ["CIRRUS_PORT": "http"])
            let termination = try await process.waitForExit()
            #expect(termination != .exited(0))
            #expect(process.output.contains("CIRRUS_PORT must be an integer"))
        }
    }

    @Test("--password-cost sets scrypt's work factor of new hashes, CIRRUS_PASSWORD_COST too; out of range stops the server")
    func passwordCost() async throws {
        try await Sandbox.with { sandbox in
            let server = try await sandbox.startServer(extra: ["--password-cost", "11"])
            let signedUp = try await server.client.send("POST", "/1.1/users", json: ["username": "cost", "password": "pass-word-1"])
            #expect(signedUp.status == 201)
            let logIn = try await server.client.send("POST", "/1.1/login", json: ["username": "cost", "password": "pass-word-1"])
            #expect(logIn.status == 200)
            try await server.stopCleanly()
            let store = try SQLiteStorageAdapter(path: sandbox.path("data/cirrus.sqlite"))
            let userId = try #require(signedUp.json["objectId"]?.stringValue)
            let stored = try await store.passwords(userIds: [userId])[userId]
            try await store.close()
            #expect(stored?.hasPrefix("$scrypt$ln=11,r=8,p=1$") == true, "\(stored ?? "none")")
            for (arguments, environment) in [(["--password-cost", "9"], [String: String]()), ([], ["CIRRUS_PASSWORD_COST": "21"])] {
                let process = try sandbox.launch(["serve", "--data-dir", sandbox.dataDirectory] + arguments, environment: environment)
                #expect(try await process.waitForExit() != .exited(0))
                #expect(process.output.contains("from 10 to 20"), "\(process.output)")
            }
        }
    }
}
