import CirrusMigration
import CirrusTesting
import Foundation
import Testing

/// LeanCloud's `POST /1.1/exportData` and `GET /1.1/exportData/<id>`: background exports, master key only, with a
/// signed download URL.
@Suite("Data export over HTTP")
struct ExportDataTests {
    @Test("only the master key may start an export or ask for one", arguments: [TestClient.Auth.appKey, .none])
    func masterOnly(_ auth: TestClient.Auth) async throws {
        try await TestServer.with { client in
            let start = try await client.request(.leancloud, .post, "/exportData", json: [:], auth: auth)
            if case .appKey = auth {
                #expect(start.status == 400)
                #expect(start.json == ["code": 1, "error": "The request must be signed by master key."])
            } else {
                #expect(start.status == 401)
            }
            let status = try await client.request(.leancloud, .get, "/exportData/\(String(repeating: "a", count: 32))", auth: auth)
            #expect(status.status == start.status)
        }
    }

    @Test(
        "bad input is refused with LeanCloud's codes",
        arguments: [
            (["from_date": "20150920"], 400, 1), (["to_date": "tomorrow"], 400, 1), (["from_date": 5], 400, 1),
            (["from_date": "2015-09-21", "to_date": "2015-09-20"], 400, 1), (["classes": "Post,no-dash"], 400, 103),
            (["classes": 7], 400, 1), (["classes": "Post,Nowhere"], 404, 101), (["only-schema": "yes"], 400, 1),
        ] as [(JSON, Int, Int64)]
    )
    func badInput(body: JSON, status: Int, code: Int64) async throws {
        try await TestServer.with { client in
            let reply = try await client.request(.leancloud, .post, "/exportData", json: body, auth: .master)
            #expect(reply.status == status, "\(reply.bodyText)")
            #expect(reply.code == code)
        }
    }

    @Test("an unknown id is not found, and the other dialects have no export endpoint")
    func unknown() async throws {
        try await TestServer.with { client in
            for id in [String(repeating: "a", count: 32), "nope", "..%2F..%2Fkeys"] {
                let reply = try await client.request(.leancloud, .get, "/exportData/\(id)", auth: .master)
                #expect(reply.status == 404, "\(id): \(reply.bodyText)")
            }
            #expect(try await client.request(.parse, .post, "/exportData", json: [:], auth: .master).status == 404)
        }
    }

    @Test("an export runs in the background, its status is polled until done, the signed URL downloads a tar.gz of the objects and an e-mail links to it")
    func roundTrip() async throws {
        try await TestServer.with { client in
            let post = try await client.request(.leancloud, .post, "/classes/Post", json: ["title": "hello"], auth: .master)
            let postId = try #require(post.json["objectId"]?.stringValue)
            _ = try await client.request(.leancloud, .post, "/users", json: ["username": "ann", "password": "secret"])
            let started = try await client.request(
                .leancloud, .post, "/exportData", json: ["classes": "Post,_User", "email": "admin@example.com", "from_date": "2015-09-20"], auth: .master
            )
            #expect(started.status == 200, "\(started.bodyText)")
            #expect(started.json["status"] == "running")
            #expect(started.json["app_id"] == .string(TestServer.keys.appId))
            let id = try #require(started.json["id"]?.stringValue)
            var status = started.json
            for _ in 0..<200 where status["status"] == "running" {
                try await Task.sleep(for: .milliseconds(50))
                status = try await client.request(.leancloud, .get, "/exportData/\(id)", auth: .master).json
                #expect(status["id"] == .string(id))
            }
            #expect(status["status"] == "done", "\(status)")
            let url = try #require(status["download_url"]?.stringValue)
            let path = String(url[try #require(url.range(of: "/1.1/exportData/")).lowerBound...])
            let download = try await client.download(path)
            #expect(download.status == 200)
            #expect(download.headers[.contentType] == "application/gzip")
            let directory = try TemporaryDirectory()
            defer { directory.remove() }
            let archive = directory.path + "/export.tar.gz"
            #expect(FileManager.default.createFile(atPath: archive, contents: Data(download.bytes)))
            #expect(Self.tar(["-xzf", archive, "-C", directory.path]) == 0)
            let posts = try String(contentsOfFile: directory.path + "/Post.jsonl", encoding: .utf8).split(separator: "\n")
            #expect(posts.count == 1)
            #expect(try JSONParser.parse(String(posts[0]))["objectId"] == .string(postId))
            let users = try String(contentsOfFile: directory.path + "/_User.jsonl", encoding: .utf8)
            #expect(users.contains("\"scryptPassword\":\"$scrypt$"))
            #expect(!FileManager.default.fileExists(atPath: directory.path + "/Tag.jsonl"))
            let mail = try #require(client.mailOutbox.last(to: "admin@example.com"))
            #expect(mail.text.contains("/1.1/exportData/\(id)/download?expires="))
        }
    }

    @Test("a tampered, expired or missing signature is refused")
    func signatures() async throws {
        try await TestServer.with { client in
            let started = try await client.request(.leancloud, .post, "/exportData", json: ["only-schema": "true"], auth: .master)
            let id = try #require(started.json["id"]?.stringValue)
            var status = started.json
            for _ in 0..<200 where status["status"] == "running" {
                try await Task.sleep(for: .milliseconds(50))
                status = try await client.request(.leancloud, .get, "/exportData/\(id)", auth: .master).json
            }
            let url = try #require(status["download_url"]?.stringValue)
            let path = String(url[try #require(url.range(of: "/1.1/exportData/")).lowerBound...])
            #expect(try await client.download(path).status == 200)
            let base = "/1.1/exportData/\(id)/download"
            let components = URLComponents(string: path)
            let expires = try #require(components?.queryItems?.first { $0.name == "expires" }?.value)
            let signature = try #require(components?.queryItems?.first { $0.name == "signature" }?.value)
            let flipped = String(signature.dropLast()) + (signature.hasSuffix("A") ? "B" : "A")
            let past = Timestamp(millisecondsSince1970: Timestamp.now().millisecondsSince1970 - 1000)
            let key = FileService.signingKey(masterKey: TestServer.keys.masterKey)
            let expiredButSigned = ExportDownloadToken.signature(id: id, expiresAt: past, key: key)
            let refused = [
                base, "\(base)?expires=\(expires)", "\(base)?expires=\(expires)&signature=\(flipped)",
                "\(base)?expires=\(Int64(expires)! + 1)&signature=\(signature)",
                "\(base)?expires=\(past.millisecondsSince1970)&signature=\(expiredButSigned)",
                "/1.1/exportData/\(String(repeating: "b", count: 32))/download?expires=\(expires)&signature=\(signature)",
            ]
            for attempt in refused {
                #expect(try await client.download(attempt).status == 403, "\(attempt)")
            }
            for key in ["exports-\(id).tar.gz.0", "exports-\(id).done.json", "exports-\(id).json"] {
                #expect(try await client.download("/files/\(key)").status == 404, "the file storage key \(key) is not served as a file")
            }
        }
    }

    static func tar(_ arguments: [String]) -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/tar")
        process.arguments = arguments
        do {
            try process.run()
        } catch {
            return -1
        }
        process.waitUntilExit()
        return process.terminationStatus
    }
}
