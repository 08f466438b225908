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
            #expect(try await server.stop() == .exited(0))
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
}
