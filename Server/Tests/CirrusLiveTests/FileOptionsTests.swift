import CirrusTesting
import Foundation
import Testing

@Suite("File options of a live server: upload rate limit, client address header, S3 redirects")
struct FileOptionsTests {
    @Test("--upload-rate-limit counts uploads per peer address over real sockets; the master key is not limited")
    func limitedByPeer() async throws {
        try await Sandbox.with { sandbox in
            let server = try await sandbox.startServer(extra: ["--upload-rate-limit", "2/min"])
            for name in ["a.txt", "b.txt"] {
                #expect(try await server.client.send("POST", "/1.1/fileTokens", json: ["name": .string(name)]).status == 200)
            }
            let refused = try await server.client.send("POST", "/1.1/fileTokens", json: ["name": "c.txt"])
            #expect(refused.status == 429)
            #expect(refused.code == 430)
            let master = ["X-LC-Id": Sandbox.keys.appId, "X-LC-Key": Sandbox.keys.masterKey + ",master"]
            #expect(try await server.client.send("POST", "/1.1/fileTokens", json: ["name": "m.txt"], headers: master).status == 200)
            try await server.stopCleanly()
        }
    }

    @Test("with --client-ip-header the client is the first address of that header, as a reverse proxy sets it")
    func limitedByForwardedAddress() async throws {
        try await Sandbox.with { sandbox in
            let server = try await sandbox.startServer(extra: ["--upload-rate-limit", "1/min", "--client-ip-header", "X-Real-IP"])
            func upload(from address: String) async throws -> LiveReply {
                try await server.client.send("POST", "/1.1/fileTokens", json: ["name": "f.txt"], headers: [
                    "X-LC-Id": Sandbox.keys.appId, "X-LC-Key": Sandbox.keys.appKey, "X-Real-IP": address,
                ])
            }
            #expect(try await upload(from: "192.0.2.10").status == 200)
            #expect(try await upload(from: "192.0.2.10").code == 430)
            #expect(try await upload(from: "192.0.2.11").status == 200)
            try await server.stopCleanly()
        }
    }

    @Test("a malformed --upload-rate-limit, --client-ip-header or --s3-redirect-downloads stops the server with a message")
    func badValues() async throws {
        let cases: [(arguments: [String], message: String)] = [
            (["--upload-rate-limit", "5/day"], "Invalid rate limit"),
            (["--client-ip-header", "X Real IP"], "is not a header name"),
            (["--s3-redirect-downloads", "60"], "--s3-redirect-downloads needs --s3-endpoint"),
            (["--s3-endpoint", "http://127.0.0.1:9", "--s3-bucket", "b", "--s3-access-key-id", "k", "--s3-secret-access-key", "s",
              "--s3-redirect-downloads", "0"], "1 to 604800 seconds"),
        ]
        try await Sandbox.with { sandbox in try await sandbox.expectRefused(cases) }
    }
}
