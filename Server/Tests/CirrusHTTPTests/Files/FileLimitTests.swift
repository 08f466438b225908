import CirrusModel
import CirrusServer
import CirrusServices
import CirrusTesting
import Testing

/// Per-client upload limits, size limits per dialect and Bmob's batch delete.
@Suite("File limits")
struct FileLimitTests {
    static let proxy: @Sendable (inout ServerConfiguration) -> Void = {
        $0.clientAddressHeader = "X-Forwarded-For"
        $0.uploadRateLimit = RateLimit([RateLimit.Window(count: 2, milliseconds: 60_000)])
    }

    @Test("uploads beyond the rate limit get LeanCloud 430, Parse 155 and Bmob 10076 per client; the master key and other clients pass")
    func uploadRate() async throws {
        try await TestServer.with(configure: Self.proxy) { client in
            let alice = ["X-Forwarded-For": "203.0.113.7, 10.0.0.1"]
            #expect(try await client.request(.leancloud, .post, "/fileTokens", json: ["name": "1.txt"], headers: alice).status == 200)
            #expect(try await client.request(.parse, .post, "/files/2.txt", body: "2", headers: alice).status == 201)
            let refused = try await client.request(.leancloud, .post, "/fileTokens", json: ["name": "3.txt"], headers: alice)
            #expect(refused.status == 429)
            #expect(refused.code == 430)
            #expect(try await client.request(.parse, .post, "/files/4.txt", body: "4", headers: alice).code == 155)
            #expect(try await client.send(.bmob, .post, "/2/files/5.txt", body: "5", headers: alice).code == 10076)
            #expect(try await client.request(.leancloud, .post, "/files", json: ["name": "e", "url": "https://x.example/e"], headers: alice).code == 430)
            #expect(try await client.request(.leancloud, .post, "/fileTokens", json: ["name": "m.txt"], auth: .master, headers: alice).status == 200)
            let bob = ["X-Forwarded-For": "198.51.100.2"]
            #expect(try await client.request(.leancloud, .post, "/fileTokens", json: ["name": "b.txt"], headers: bob).status == 200)
            let files = try await client.request(.leancloud, .get, "/classes/_File?count=1&limit=0", auth: .master)
            #expect(files.json["count"] == 4)
        }
    }

    @Test("a rate limit reads N/s, N/min and N/h joined by commas, or off; anything else is refused")
    func parsing() throws {
        #expect(try RateLimit(parsing: "1/s,30/min") == RateLimit([.init(count: 1, milliseconds: 1000), .init(count: 30, milliseconds: 60_000)]))
        #expect(try RateLimit(parsing: "100/h").windows == [.init(count: 100, milliseconds: 3_600_000)])
        #expect(try RateLimit(parsing: "off") == .unlimited)
        for bad in ["", "10", "0/s", "-1/s", "3/day", "1/s,", "x/min"] {
            #expect(throws: APIError.self, "\(bad)") { try RateLimit(parsing: bad) }
        }
    }

    @Test("too large files get LeanCloud 413, Parse 130 and Bmob 145; a Bmob name without an extension gets 146")
    func sizesAndNames() async throws {
        try await TestServer.with(configure: { $0.maximumFileSize = 8 }) { client in
            let content = String(repeating: "z", count: 9)
            let parse = try await client.request(.parse, .post, "/files/big.txt", body: content)
            #expect(parse.status == 413)
            #expect(parse.code == 130)
            #expect(try await client.send(.bmob, .post, "/2/files/big.txt", body: content).code == 145)
            let tokens = try await client.request(.leancloud, .post, "/fileTokens", json: ["name": "big.txt"])
            let put = try await client.send(.leancloud, .put, FileUploadTests.local(tokens.json["upload_url"]?.stringValue), body: content, auth: .none)
            #expect(put.status == 413)
            #expect(put.code == 413)
            #expect(try await client.send(.bmob, .post, "/2/files/README", body: "r").code == 146)
        }
    }

    @Test("Bmob's cdnBatchDelete deletes by URL path and lists the URLs it could not delete with code 154")
    func batchDelete() async throws {
        try await TestServer.with { client in
            var paths: [JSON] = []
            for name in ["a.txt", "b.txt"] {
                let reply = try await client.send(.bmob, .post, "/2/files/\(name)", body: name)
                paths.append(.string(String(FileUploadTests.local(reply.json["url"]?.stringValue).dropFirst())))
            }
            let denied = try await client.send(.bmob, .post, "/2/cdnBatchDelete", json: ["upyun": .array(paths)])
            #expect(denied.code == 154)
            #expect(denied.json["fail"] == ["upyun": .array(paths)])
            let missing = "files/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA.txt"
            let mixed = try await client.send(.bmob, .post, "/2/cdnBatchDelete", json: ["upyun": [paths[0], .string(missing)]], auth: .master)
            #expect(mixed.status == 400)
            #expect(mixed.json["fail"] == ["upyun": [.string(missing)]])
            let done = try await client.send(.bmob, .post, "/2/cdnBatchDelete", json: ["upyun": [.string("http://127.0.0.1:3000/" + (paths[1].stringValue ?? ""))]], auth: .master)
            #expect(done.json == ["msg": "ok"])
            for path in paths { #expect(try await client.send(.bmob, .get, "/" + (path.stringValue ?? ""), body: nil, auth: .none).status == 404) }
            #expect(try await client.send(.bmob, .post, "/2/cdnBatchDelete", json: ["upyun": "x"], auth: .master).code == 118)
            #expect(try await client.send(.bmob, .post, "/2/cdnBatchDelete", json: [:], auth: .master).code == 118)
            #expect(try await client.send(.bmob, .post, "/2/cdnBatchDelete", json: ["upyun": [1]], auth: .master).code == 118)
        }
    }
}
