import CirrusModel
import CirrusTesting
import Testing

/// Downloads with ranges and caching; the immutability and the delete permission of `_File` rows.
@Suite("File access")
struct FileAccessTests {
    @Test("downloads answer single ranges with 206, an unsatisfiable range with 416, a matching ETag with 304, HEAD without a body")
    func ranges() async throws {
        try await TestServer.with { client in
            let reply = try await FileUploadTests.upload(client, name: "digits.txt", content: "0123456789")
            let path = "/files/\(reply["key"]?.stringValue ?? "")"
            func get(_ headers: [String: String], _ method: HTTPRequest.Method = .get) async throws -> TestReply {
                try await client.send(.leancloud, method, path, body: nil, auth: .none, headers: headers)
            }
            let cases: [(String, Int, String, String?)] = [
                ("bytes=0-4", 206, "01234", "bytes 0-4/10"), ("bytes=7-", 206, "789", "bytes 7-9/10"), ("bytes=-3", 206, "789", "bytes 7-9/10"),
                ("bytes=8-100", 206, "89", "bytes 8-9/10"), ("bytes=0-1,4-5", 200, "0123456789", nil), ("items=0-1", 200, "0123456789", nil),
            ]
            for (range, status, body, contentRange) in cases {
                let reply = try await get(["Range": range])
                #expect(reply.status == status, "\(range)")
                #expect(reply.bodyText == body, "\(range)")
                #expect(reply.header("Content-Range") == contentRange, "\(range)")
            }
            let unsatisfiable = try await get(["Range": "bytes=10-"])
            #expect(unsatisfiable.status == 416)
            #expect(unsatisfiable.header("Content-Range") == "bytes */10")
            let whole = try await get([:])
            #expect(whole.header("Accept-Ranges") == "bytes")
            #expect(whole.header("Cache-Control")?.contains("immutable") == true)
            let etag = try #require(whole.header("ETag"))
            #expect(try await get(["If-None-Match": etag]).status == 304)
            let head = try await get([:], .head)
            #expect(head.status == 200)
            #expect(head.bodyText.isEmpty)
            #expect(head.header("Content-Length") == "10")
            #expect(try await client.send(.leancloud, .get, "/files/missing-key", body: nil, auth: .none).status == 404)
            #expect(try await client.send(.leancloud, .get, "/files/..%2Fcirrus.sqlite", body: nil, auth: .none).status == 404)
        }
    }

    @Test("Parse and Bmob delete a file by its name or URL path with the master key; clients are refused by default")
    func deleteByName() async throws {
        try await TestServer.with { client in
            let parse = try await client.request(.parse, .post, "/files/p.txt", body: "p")
            let key = try #require(parse.json["name"]?.stringValue)
            #expect(try await client.request(.parse, .delete, "/files/\(key)").status == 403)
            #expect(try await client.request(.parse, .delete, "/files/\(key)", auth: .master).status == 200)
            #expect(try await client.send(.parse, .get, "/files/\(key)", body: nil, auth: .none).status == 404)
            #expect(try await client.request(.parse, .delete, "/files/\(key)", auth: .master).code == 101)
            let bmob = try await client.send(.bmob, .post, "/2/files/b.txt", body: "b")
            let url = try #require(bmob.json["url"]?.stringValue)
            let path = FileUploadTests.local(url)
            #expect(try await client.send(.bmob, .delete, "/2/files/upyun\(path)").code == 122)
            #expect(try await client.send(.bmob, .delete, "/2/files/upyun\(path)", auth: .master).json == ["msg": "ok"])
            #expect(try await client.send(.bmob, .get, path, body: nil, auth: .none).status == 404)
        }
    }

    @Test("file rows do not change after the upload and are created only by uploading")
    func immutable() async throws {
        try await TestServer.with { client in
            let reply = try await FileUploadTests.upload(client, name: "fixed.txt", content: "x")
            let id = try #require(reply["objectId"]?.stringValue)
            #expect(try await client.request(.leancloud, .put, "/classes/_File/\(id)", json: ["name": "renamed"], auth: .master).code == 139)
            #expect(try await client.request(.leancloud, .post, "/classes/_File", json: ["name": "forged", "key": "k"]).status == 403)
            #expect(try await client.request(.leancloud, .get, "/files/\(id)").json["name"] == "fixed.txt")
        }
    }

    @Test("deleting a file needs the master key or the _File delete permission, and removes its content", arguments: ["/files", "/classes/_File"])
    func deletion(_ route: String) async throws {
        try await TestServer.with { client in
            let reply = try await FileUploadTests.upload(client, name: "doomed.txt", content: "x")
            let id = try #require(reply["objectId"]?.stringValue)
            let path = "/files/\(reply["key"]?.stringValue ?? "")"
            let denied = try await client.request(.leancloud, .delete, "\(route)/\(id)")
            #expect(denied.status == 403)
            #expect(try await client.send(.leancloud, .get, path, body: nil, auth: .none).status == 200)
            #expect(try await client.request(.leancloud, .delete, "\(route)/\(id)", auth: .master).status == 200)
            #expect(try await client.send(.leancloud, .get, path, body: nil, auth: .none).status == 404)
            #expect(try await client.request(.leancloud, .get, "/files/\(id)").json == [:])
            let other = try await FileUploadTests.upload(client, name: "open.txt", content: "y")
            _ = try await client.request(.leancloud, .put, "/schemas/_File", json: ["classLevelPermissions": ["delete": ["*": true]]], auth: .master)
            #expect(try await client.request(.leancloud, .delete, "\(route)/\(other["objectId"]?.stringValue ?? "")").status == 200)
        }
    }
}
