import CirrusTesting
import Foundation
import Testing

@Suite("Generated keys of a live server")
struct KeyGenerationTests {
    @Test("the first start generates keys into keys.json and prints them; they authorise requests")
    func firstStartGeneratesKeys() async throws {
        try await Sandbox.with { sandbox in
            let server = try await sandbox.startServer(keys: nil)
            let keys = server.client.keys
            #expect(FileManager.default.fileExists(atPath: sandbox.path("data/keys.json")))
            #expect(Set([keys.appId, keys.appKey, keys.masterKey]).count == 3)
            let output = server.process.output
            #expect(output.contains(keys.appId))
            #expect(output.contains(keys.appKey))
            #expect(output.contains(keys.masterKey))

            let created = try await server.client.send("POST", "/1.1/classes/Note", json: ["text": "hello"])
            #expect(created.status == 201)
            let wrongKey = try await server.client.send(
                "POST", "/1.1/classes/Note", json: ["text": "hello"], headers: ["X-LC-Id": keys.appId, "X-LC-Key": "not-the-key"]
            )
            #expect(wrongKey.status == 401)
            try await server.stopCleanly()
        }
    }

    @Test("a second start reuses the stored keys without printing new ones")
    func secondStartReusesKeys() async throws {
        try await Sandbox.with { sandbox in
            let first = try await sandbox.startServer(keys: nil)
            let keys = first.client.keys
            let fileBefore = try String(contentsOfFile: sandbox.path("data/keys.json"), encoding: .utf8)
            try await first.stop()

            let second = try await sandbox.startServer(keys: nil)
            #expect(second.client.keys == keys)
            #expect(try String(contentsOfFile: sandbox.path("data/keys.json"), encoding: .utf8) == fileBefore)
            #expect(!second.process.output.contains(keys.masterKey))
            let created = try await second.client.send("POST", "/1.1/classes/Note", json: ["text": "again"])
            #expect(created.status == 201)
            try await second.stop()
        }
    }

    @Test("a keys.json written before there was a hook key gets one, printed once; the app keys stay")
    func hookKeyAdded() async throws {
        try await Sandbox.with { sandbox in
            try FileManager.default.createDirectory(atPath: sandbox.path("data"), withIntermediateDirectories: true)
            let old = #"{"appId":"old-app-id","appKey":"old-app-key","masterKey":"old-master-key"}"#
            #expect(FileManager.default.createFile(atPath: sandbox.path("data/keys.json"), contents: Data(old.utf8)))
            let server = try await sandbox.startServer(keys: nil)
            // Read once the server answers: the file it found is rewritten with the new key before it listens.
            let keys = try await Sandbox.storedKeys(in: sandbox.path("data"), waitingFor: server.process)
            #expect(keys.appId == "old-app-id" && keys.appKey == "old-app-key" && keys.masterKey == "old-master-key")
            let hookKey = try #require(keys.hookKey)
            #expect(hookKey.count == 24 && server.process.output.contains(hookKey))
            #expect(!server.process.output.contains("old-master-key"))
            try await server.stop()
            let again = try await sandbox.startServer(keys: nil)
            #expect(try await Sandbox.storedKeys(in: sandbox.path("data"), waitingFor: again.process).hookKey == hookKey)
            #expect(!again.process.output.contains(hookKey))
            try await again.stop()
        }
    }

    @Test("an engine URL that is not http(s), a staging engine alone, or an engine with flag-given keys and no hook key stop the server")
    func engineSettingsRefused() async throws {
        let keys = ["--app-id", "a", "--app-key", "k", "--master-key", "m"]
        let cases: [(arguments: [String], message: String)] = [
            (["--engine-url", "ftp://127.0.0.1:3100"], "must be an http:// or https:// URL"),
            (["--staging-engine-url", "http://127.0.0.1:3101"], "needs CIRRUS_ENGINE_URL"),
            (keys + ["--engine-url", "http://127.0.0.1:3100"], "give its hook key too"),
            (["--hook-key", "h"], "is given with the app keys"),
        ]
        try await Sandbox.with { sandbox in try await sandbox.expectRefused(cases) }
    }
}
