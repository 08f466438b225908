import CirrusModel
import CirrusServer
import CirrusTesting
import Testing

/// Uploads as the SDKs drive them: LeanCloud's fileTokens, signed PUT and fileCallback; external files; Parse's and
/// Bmob's raw uploads.
@Suite("File uploads")
struct FileUploadTests {
    /// The path and query of an absolute URL on the test server.
    static func local(_ url: String?) -> String {
        guard let url, let slash = url.dropFirst("http://".count).firstIndex(of: "/") else { return "/missing" }
        return String(url[slash...])
    }

    /// Starts a LeanCloud upload and PUTs `content` to its URL; returns the fileTokens reply.
    static func upload(_ client: TestClient, name: String, content: String, auth: TestClient.Auth = .appKey) async throws -> JSON {
        let tokens = try await client.request(.leancloud, .post, "/fileTokens", json: [
            "name": .string(name), "ACL": .null, "mime_type": .null, "metaData": ["owner": "unknown", "size": .int(Int64(content.utf8.count))],
        ], auth: auth)
        #expect(tokens.status == 200, "\(tokens.bodyText)")
        let put = try await client.send(.leancloud, .put, local(tokens.json["upload_url"]?.stringValue), body: content, auth: .none,
            headers: ["Content-Type": "text/plain"])
        #expect(put.status == 200, "\(put.bodyText)")
        return tokens.json
    }

    @Test("fileTokens answers the row, a token, provider s3 and a signed upload URL; the PUT stores the content at the file's url")
    func leanCloudUpload() async throws {
        try await TestServer.with { client in
            let user = try await client.signUp(.leancloud, "uploader")
            let reply = try await Self.upload(client, name: "hello.txt", content: "Hello, files!", auth: .session(user.token))
            #expect(reply["provider"] == "s3")
            #expect(reply["mime_type"] == "text/plain")
            #expect(reply["name"] == "hello.txt")
            #expect(reply["metaData"]?["owner"]?.stringValue == user.id)
            let key = try #require(reply["key"]?.stringValue)
            #expect(WireFormat.matches(key, "[A-Za-z0-9]{40}\\.txt"))
            #expect(reply["url"]?.stringValue == "http://127.0.0.1:3000/files/\(key)")
            #expect(reply["upload_url"]?.stringValue?.hasPrefix("http://127.0.0.1:3000/1.1/fileUploads/") == true)
            #expect(try await client.request(.leancloud, .post, "/fileCallback", json: ["token": reply["token"] ?? .null, "result": true]).status == 200)
            let download = try await client.send(.leancloud, .get, "/files/\(key)", body: nil, auth: .none)
            #expect(download.status == 200)
            #expect(download.bodyText == "Hello, files!")
            #expect(download.header("Content-Type") == "text/plain")
            let id = try #require(reply["objectId"]?.stringValue)
            let fetched = try await client.request(.leancloud, .get, "/files/\(id)")
            #expect(fetched.json["url"] == reply["url"])
            #expect(fetched.json["key"]?.stringValue == key)
            let found = try await client.request(.leancloud, .get, "/classes/_File?" + URLQuery.whereClause(["key": .string(key)]))
            #expect(found.json["results"]?[0]?["url"] == reply["url"])
            #expect(found.json["results"]?[0]?["name"] == "hello.txt")
        }
    }

    @Test("a file value saved as {__type: File, id} reads back as the file's row with its url, in fields and arrays (R#2)")
    func fileValues() async throws {
        try await TestServer.with { client in
            let reply = try await Self.upload(client, name: "photo.txt", content: "pixels")
            let id = try #require(reply["objectId"]?.stringValue)
            let file: JSON = ["__type": "File", "id": .string(id)]
            let object = try await client.create(.leancloud, "Album", ["cover": file, "pages": [file, 3]])
            let fetched = try await client.fetch(.leancloud, "Album", object)
            for value in [fetched.json["cover"], fetched.json["pages"]?[0]] {
                #expect(value?["__type"] == "File")
                #expect(value?["objectId"]?.stringValue == id)
                #expect(value?["url"] == reply["url"])
                #expect(value?["name"] == "photo.txt")
                #expect(value?["mime_type"] == "text/plain")
            }
            #expect(fetched.json["pages"]?[1] == 3)
            let found = try await client.request(.leancloud, .get, "/classes/Album")
            #expect(found.json["results"]?[0]?["cover"]?["url"] == reply["url"])
            let missing = try await client.create(.leancloud, "Album", ["cover": ["__type": "File", "id": "ffffffffffffffffffffffff"]])
            #expect(try await client.fetch(.leancloud, "Album", missing).json["cover"] == ["__type": "File", "id": "ffffffffffffffffffffffff"])
        }
    }

    @Test("an upload URL with a wrong, foreign or expired token is refused and stores nothing")
    func badTokens() async throws {
        let clock = TestClock()
        var accounts = TestServer.fastAccounts
        accounts.clock = { clock.now() }
        try await TestServer.with(accounts: accounts) { client in
            let first = try await client.request(.leancloud, .post, "/fileTokens", json: ["name": "a.txt", "metaData": [:]])
            let second = try await client.request(.leancloud, .post, "/fileTokens", json: ["name": "b.txt", "metaData": [:]])
            let firstId = try #require(first.json["objectId"]?.stringValue)
            let secondToken = try #require(second.json["token"]?.stringValue)
            for path in ["/1.1/fileUploads/\(firstId)?token=forged", "/1.1/fileUploads/\(firstId)?token=\(secondToken)", "/1.1/fileUploads/\(firstId)"] {
                #expect(try await client.send(.leancloud, .put, path, body: "x", auth: .none).status == 401, "\(path)")
            }
            clock.advance(seconds: 3601)
            #expect(try await client.send(.leancloud, .put, Self.local(first.json["upload_url"]?.stringValue), body: "late", auth: .none).status == 401)
            let key = try #require(first.json["key"]?.stringValue)
            #expect(try await client.send(.leancloud, .get, "/files/\(key)", body: nil, auth: .none).status == 404)
        }
    }

    @Test("fileCallback with result false removes the row and its content")
    func failedCallback() async throws {
        try await TestServer.with { client in
            let reply = try await Self.upload(client, name: "gone.txt", content: "bye")
            #expect(try await client.request(.leancloud, .post, "/fileCallback", json: ["token": reply["token"] ?? .null, "result": false]).json == [:])
            #expect(try await client.request(.leancloud, .get, "/files/\(reply["objectId"]?.stringValue ?? "")").json == [:])
            #expect(try await client.send(.leancloud, .get, "/files/\(reply["key"]?.stringValue ?? "")", body: nil, auth: .none).status == 404)
        }
    }

    @Test("an external file stores its URL and no content; it reads back with metaData.__source external")
    func externalFile() async throws {
        try await TestServer.with { client in
            let created = try await client.request(.leancloud, .post, "/files", json: [
                "name": "logo.png", "url": "https://example.com/logo.png", "mime_type": .null, "metaData": ["owner": "unknown"], "ACL": .null,
            ])
            #expect(created.status == 201, "\(created.bodyText)")
            #expect(created.keys == ["createdAt", "objectId"])
            let fetched = try await client.request(.leancloud, .get, "/files/\(created.json["objectId"]?.stringValue ?? "")")
            #expect(fetched.json["url"] == "https://example.com/logo.png")
            #expect(fetched.json["mime_type"] == "image/png")
            #expect(fetched.json["metaData"]?["__source"] == "external")
            #expect(try await client.request(.leancloud, .post, "/files", json: ["name": "x", "url": "ftp://nope"]).status == 400)
        }
    }

    @Test("Parse uploads the raw body to /files/<name> and answers 201 {name, url}; Bmob answers {filename, url, cdn}")
    func parseAndBmob() async throws {
        try await TestServer.with { client in
            let parse = try await client.request(.parse, .post, "/files/notes.md", body: "# Notes", headers: ["Content-Type": "text/markdown"])
            #expect(parse.status == 201)
            #expect(parse.keys == ["name", "url"])
            #expect(parse.header("Location") == parse.json["url"]?.stringValue)
            let parsed = try await client.send(.parse, .get, Self.local(parse.json["url"]?.stringValue), body: nil, auth: .none)
            #expect(parsed.bodyText == "# Notes")
            #expect(parsed.header("Content-Type") == "text/markdown")
            let bmob = try await client.send(.bmob, .post, "/2/files/photo.jpg", body: "jpeg-bytes", headers: ["Content-Type": "application/octet-stream"])
            #expect(bmob.status == 200, "\(bmob.bodyText)")
            #expect(bmob.json["filename"] == "photo.jpg")
            #expect(bmob.json["cdn"] == "cirrus")
            let bmobFile = try await client.send(.bmob, .get, Self.local(bmob.json["url"]?.stringValue), body: nil, auth: .none)
            #expect(bmobFile.bodyText == "jpeg-bytes")
        }
    }

    @Test("bad uploads are refused: no name, a bad name, a key without the master key, an oversize body, unauthenticated requests")
    func badInput() async throws {
        try await TestServer.with(configure: { $0.maximumFileSize = 16 }) { client in
            #expect(try await client.request(.leancloud, .post, "/fileTokens", json: ["metaData": [:]]).code == 122)
            #expect(try await client.request(.leancloud, .post, "/fileTokens", json: ["name": "a/b.txt"]).code == 122)
            #expect(try await client.request(.leancloud, .post, "/fileTokens", json: ["name": ""]).code == 122)
            #expect(try await client.request(.leancloud, .post, "/fileTokens", json: ["name": "k.txt", "key": "chosen.txt"]).status == 400)
            #expect(try await client.request(.leancloud, .post, "/fileTokens", json: ["name": "k.txt", "key": "chosen.txt"], auth: .master).json["key"] == "chosen.txt")
            #expect(try await client.request(.leancloud, .post, "/fileTokens", body: "{", headers: [:]).code == 107)
            #expect(try await client.request(.leancloud, .post, "/fileTokens", json: ["name": "m.txt", "metaData": ["__type": "x"]]).code == 121)
            #expect(try await client.request(.leancloud, .post, "/fileTokens", json: ["name": "m.txt", "metaData": ["a.b": 1]]).code == 121)
            #expect(try await client.request(.leancloud, .post, "/fileTokens", json: ["name": "x.txt"], auth: .none).status == 401)
            let big = try await client.request(.parse, .post, "/files/big.txt", body: String(repeating: "x", count: 17))
            #expect(big.status == 413)
            #expect(try await client.request(.parse, .post, "/files/ok.txt", body: String(repeating: "x", count: 16)).status == 201)
            let tokens = try await client.request(.leancloud, .post, "/fileTokens", json: ["name": "big.bin"])
            let put = try await client.send(.leancloud, .put, Self.local(tokens.json["upload_url"]?.stringValue), body: String(repeating: "y", count: 17), auth: .none)
            #expect(put.status == 413)
            #expect(try await client.request(.parse, .post, "/files/new.txt", body: "x", auth: .none).status == 401)
        }
    }
}
