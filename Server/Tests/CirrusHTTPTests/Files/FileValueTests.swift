import CirrusModel
import CirrusTesting
import Testing

/// File values in objects, as each dialect writes and reads them.
@Suite("File values across dialects")
struct FileValueTests {
    @Test("a LeanCloud file value reads back in Parse as {__type, name: key, url} and in Bmob as {__type, filename, url, cdn}")
    func dialectShapes() async throws {
        try await TestServer.with { client in
            let reply = try await FileUploadTests.upload(client, name: "cover.txt", content: "pixels")
            let (id, key, url) = (reply["objectId"] ?? .null, reply["key"] ?? .null, reply["url"] ?? .null)
            let album = try await client.create(.leancloud, "Album", ["cover": ["__type": "File", "id": id], "pages": [["__type": "File", "id": id]]])
            let parse = try await client.fetch(.parse, "Album", album)
            #expect(parse.json["cover"] == ["__type": "File", "name": key, "url": url])
            #expect(parse.json["pages"] == [["__type": "File", "name": key, "url": url]])
            let bmob = try await client.fetch(.bmob, "Album", album)
            #expect(bmob.json["cover"] == ["__type": "File", "filename": "cover.txt", "url": url, "cdn": "cirrus"])
            let found = try await client.request(.parse, .get, "/classes/Album")
            #expect(found.json["results"]?[0]?["cover"] == ["__type": "File", "name": key, "url": url])
        }
    }

    @Test("a file Parse names by its key, or Bmob by its URL, is stored as the row's id and reads back in every dialect")
    func linksToRows() async throws {
        try await TestServer.with { client in
            let parseUpload = try await client.request(.parse, .post, "/files/p.txt", body: "from parse")
            let (parseKey, parseURL) = (parseUpload.json["name"] ?? .null, parseUpload.json["url"] ?? .null)
            let parsed = try await client.create(.parse, "Doc", ["file": ["__type": "File", "name": parseKey, "url": parseURL]])
            let asLeanCloud = try await client.fetch(.leancloud, "Doc", parsed)
            #expect(asLeanCloud.json["file"]?["objectId"]?.stringValue?.count == 24)
            #expect(asLeanCloud.json["file"]?["name"] == "p.txt")
            #expect(asLeanCloud.json["file"]?["url"] == parseURL)
            #expect(try await client.fetch(.parse, "Doc", parsed).json["file"] == ["__type": "File", "name": parseKey, "url": parseURL])

            let bmobUpload = try await client.send(.bmob, .post, "/2/files/b.jpg", body: "from bmob")
            let bmobURL = bmobUpload.json["url"] ?? .null
            let bmobbed = try await client.create(.bmob, "Doc", ["file": ["__type": "File", "filename": "b.jpg", "group": "group1", "url": bmobURL]])
            let stored = try #require(try await client.store.fetch(className: "Doc", ids: [bmobbed]).first)
            #expect(stored.fields["file"]?["id"]?.stringValue?.count == 24)
            #expect(stored.fields["file"]?["url"] == nil)
            #expect(try await client.fetch(.bmob, "Doc", bmobbed).json["file"] == ["__type": "File", "filename": "b.jpg", "url": bmobURL, "cdn": "cirrus"])
        }
    }

    @Test("file values this server does not store are kept as sent: external URLs, unknown keys, ids of deleted rows")
    func foreignFilesStay() async throws {
        try await TestServer.with { client in
            let external: JSON = ["__type": "File", "name": "logo.png", "url": "https://cdn.example.com/logo.png"]
            let unknown: JSON = ["__type": "File", "name": "nokey123.png"]
            let id = try await client.create(.parse, "Doc", ["a": external, "b": unknown])
            let fetched = try await client.fetch(.parse, "Doc", id)
            #expect(fetched.json["a"] == external)
            #expect(fetched.json["b"] == unknown)
            let foreignHost = try await client.create(.bmob, "Doc", ["c": ["__type": "File", "filename": "x.jpg", "url": "http://bmob-cdn-1.b0.upaiyun.com/x.jpg", "cdn": "upyun"]])
            #expect(try await client.fetch(.bmob, "Doc", foreignHost).json["c"]?["url"] == "http://bmob-cdn-1.b0.upaiyun.com/x.jpg")
        }
    }

    @Test("files inside included objects are expanded, and Add/AddUnique of Parse file values link them too")
    func includedAndOperations() async throws {
        try await TestServer.with { client in
            let reply = try await FileUploadTests.upload(client, name: "avatar.txt", content: "face")
            let (id, key, url) = (reply["objectId"] ?? .null, reply["key"] ?? .null, reply["url"] ?? .null)
            let author = try await client.create(.leancloud, "Author", ["avatar": ["__type": "File", "id": id]])
            let post = try await client.create(.leancloud, "Post", ["author": ["__type": "Pointer", "className": "Author", "objectId": .string(author)]])
            let included = try await client.fetch(.leancloud, "Post", post, query: "include=author")
            #expect(included.json["author"]?["avatar"]?["url"] == url)
            #expect(included.json["author"]?["avatar"]?["mime_type"] == "text/plain")
            let parse = try await client.request(.parse, .get, "/classes/Post?include=author")
            #expect(parse.json["results"]?[0]?["author"]?["avatar"] == ["__type": "File", "name": key, "url": url])

            let added = try await client.request(.parse, .put, "/classes/Post/\(post)", json: [
                "files": ["__op": "AddUnique", "objects": [["__type": "File", "name": key, "url": url]]],
            ])
            #expect(added.status == 200, "\(added.bodyText)")
            let stored = try #require(try await client.store.fetch(className: "Post", ids: [post]).first)
            #expect(stored.fields["files"] == [["__type": "File", "id": id]])
        }
    }
}

@Suite("File rows")
struct FileRowTests {
    @Test("_File rows are found by metaData, name and key; include of a file field leaves it expanded; unknown ids read as missing")
    func queriesAndMissing() async throws {
        try await TestServer.with { client in
            let user = try await client.signUp(.leancloud, "owner")
            let mine = try await FileUploadTests.upload(client, name: "mine.txt", content: "12345", auth: .session(user.token))
            _ = try await FileUploadTests.upload(client, name: "other.txt", content: "1")
            let byOwner = try await client.request(.leancloud, .get, "/classes/_File?" + URLQuery.whereClause(["metaData.owner": .string(user.id)]))
            #expect(byOwner.json["results"]?.arrayValue?.compactMap { $0["name"] } == ["mine.txt"])
            let bySize = try await client.request(.leancloud, .get, "/classes/_File?" + URLQuery.whereClause(["metaData.size": ["$gte": 5]]))
            #expect(bySize.json["results"]?.arrayValue?.compactMap { $0["objectId"] } == [mine["objectId"] ?? .null])
            let byName = try await client.request(.leancloud, .get, "/classes/_File?" + URLQuery.whereClause(["name": ["$regex": "^oth"]]))
            #expect(byName.json["results"]?.arrayValue?.count == 1)

            let album = try await client.create(.leancloud, "Album", ["cover": ["__type": "File", "id": mine["objectId"] ?? .null]])
            let included = try await client.fetch(.leancloud, "Album", album, query: "include=cover")
            #expect(included.json["cover"]?["url"] == mine["url"])

            let unknown = "ffffffffffffffffffffffff"
            #expect(try await client.request(.leancloud, .get, "/files/\(unknown)").json == [:])
            #expect(try await client.request(.leancloud, .get, "/files/not-an-id").json == [:])
            #expect(try await client.request(.leancloud, .post, "/fileCallback", json: ["token": "forged", "result": false]).status == 200)
            let forged = try await client.send(.leancloud, .put, "/1.1/fileUploads/\(unknown)?token=\(unknown)", body: "x", auth: .none)
            #expect(forged.status == 401)
        }
    }
}
