import CirrusMigration
import CirrusModel
import CirrusStorage
import CirrusTesting
import Foundation
import Testing

/// A LeanCloud export imported into a live in-process server (SQLite, or PostgreSQL with CIRRUS_TEST_STORE=postgres),
/// then read back through the HTTP API as clients would.
@Suite("Importing a LeanCloud export")
struct LeanCloudImportTests {
    static let aliceToken = "alicestabletoken0123456789abcdef"

    /// Every kind of row an export holds.
    static func writeExport(_ fixture: ExportFixture) throws {
        try fixture.document("manifest.json", ["format": "cirrus-export", "version": 1])
        try fixture.document(
            "_schema.json",
            [
                "results": [
                    [
                        "className": "Post",
                        "fields": [
                            "objectId": ["type": "String"], "ACL": ["type": "ACL"], "title": ["type": "String"],
                            "comments": ["type": "Relation", "targetClass": "Comment"], "author": ["type": "Pointer", "targetClass": "_User"],
                        ],
                        "indexes": ["title_1": ["title": 1]],
                    ]
                ]
            ]
        )
        try fixture.lines(
            "_File.jsonl",
            [
                [
                    "objectId": "file1", "key": "gamemaster/abc.png", "name": "abc.png", "mime_type": "image/png", "url": "https://old.example/gamemaster/abc.png",
                    "metaData": ["size": 3, "owner": "alice1"], "createdAt": "2020-01-01T00:00:00.000Z", "updatedAt": "2020-01-01T00:00:00.000Z", "ACL": [:],
                ],
                [
                    "objectId": "file2", "key": "ext1", "name": "ext.jpg", "url": "https://cdn.example/ext.jpg", "metaData": ["__source": "external"],
                    "createdAt": "2020-01-01T00:00:00.000Z", "updatedAt": "2020-01-01T00:00:00.000Z",
                ],
            ]
        )
        try fixture.lines(
            "_User.jsonl",
            [
                [
                    "objectId": "alice1", "username": "alice", "email": "alice@example.com", "emailVerified": true, "password": .string(LeanCloudVector.hash),
                    "salt": .string(LeanCloudVector.salt), "sessionToken": .string(aliceToken), "createdAt": "2019-04-29T07:46:41.687Z",
                    "updatedAt": "2020-11-04T03:29:17.441Z", "ACL": ["*": ["read": true], "alice1": ["read": true, "write": true]],
                ],
                [
                    "objectId": "carol1", "username": "carol", "password": "", "salt": "abcdef", "mobilePhoneNumber": "+8618600000000",
                    "createdAt": "2019-04-29T07:46:41.687Z", "updatedAt": "2019-04-29T07:46:41.687Z", "ACL": ["*": ["read": true]],
                ],
                [
                    "objectId": "bob1", "username": "bob", "authData": ["github": ["uid": "gh1"]], "createdAt": "2019-04-29T07:46:41.687Z",
                    "updatedAt": "2019-04-29T07:46:41.687Z",
                ],
            ]
        )
        try fixture.lines(
            "_Role.jsonl",
            [
                [
                    "objectId": "role1", "name": "Editors", "ACL": ["*": ["read": true]], "users": ["__type": "Relation", "className": "_User"],
                    "createdAt": "2019-05-01T00:00:00.000Z", "updatedAt": "2019-05-01T00:00:00.000Z",
                ],
                [
                    "objectId": "role2", "name": "Admins", "ACL": ["*": ["read": true]], "roles": ["__type": "Relation", "className": "_Role"],
                    "createdAt": "2019-05-01T00:00:00.000Z", "updatedAt": "2019-05-01T00:00:00.000Z",
                ],
            ]
        )
        try fixture.lines("_Join:users:_Role.jsonl", [["owningId": "role1", "relatedId": "alice1"]])
        // Editors are Admins: alice holds role:Admins through role:Editors. Written with LeanCloud's U+A789 colon.
        try fixture.lines("_Join\u{A789}roles\u{A789}_Role.jsonl", [["owningId": "role2", "relatedId": "role1"]])
        try fixture.lines(
            "Comment.jsonl",
            [["objectId": "c1", "text": "one", "createdAt": "2021-01-01T00:00:00.000Z"], ["objectId": "c2", "text": "two", "createdAt": "2021-01-01T00:00:00.000Z"]]
        )
        try fixture.lines(
            "Post.0.jsonl",
            [
                [
                    "objectId": "post1", "title": "All types", "count": 42, "ratio": 0.5, "flag": true, "when": ["__type": "Date", "iso": "2015-06-21T18:02:52.249Z"],
                    "where": ["__type": "GeoPoint", "latitude": 39.9, "longitude": 116.4], "blob": ["__type": "Bytes", "base64": "AQID"],
                    "tags": ["a", 1], "meta": ["nested": ["x": 1]], "author": ["__type": "Pointer", "className": "_User", "objectId": "alice1"],
                    "image": ["__type": "File", "id": "file1"], "comments": ["__type": "Relation", "className": "Comment"],
                    "createdAt": "2019-04-29T07:46:41.687Z", "updatedAt": "2020-11-04T03:29:17.441Z", "ACL": ["role:Admins": ["read": true]],
                ],
                ["objectId": "post2", "title": "Master only", "createdAt": "2019-04-29T07:46:41.687Z", "updatedAt": "2019-04-29T07:46:41.687Z", "ACL": [:]],
                ["objectId": "post3", "title": "No ACL", "createdAt": "2019-04-29T07:46:41.687Z", "updatedAt": "2019-04-29T07:46:41.687Z"],
                [
                    "objectId": "post4", "title": "File by pointer and by url", "image": ["__type": "Pointer", "className": "_File", "objectId": "file2"],
                    "gallery": [["__type": "File", "url": "https://old.example/gamemaster/abc.png"]], "createdAt": "2019-04-29T07:46:41.687Z",
                ],
            ]
        )
        try fixture.lines("_Join:comments:Post.jsonl", [["owningId": "post1", "relatedId": "c1"], ["owningId": "post1", "relatedId": "c2"]])
        try fixture.lines(
            "_Installation.jsonl",
            [["objectId": "inst1", "installationId": "device-1", "deviceType": "ios", "deviceToken": "abc", "createdAt": "2019-04-29T07:46:41.687Z"]]
        )
    }

    static func options(_ fixture: ExportFixture, path: String? = nil, dryRun: Bool = false, batchSize: Int = 300) -> ImportOptions {
        ImportOptions(
            source: .leancloud, path: path ?? fixture.path, statePath: fixture.statePath, reportPath: fixture.reportPath, batchSize: batchSize,
            dryRun: dryRun
        )
    }

    @Test("objects keep their ids, dates, values, ACLs, pointers, files and relations; users log in with their old password")
    func everything() async throws {
        let fixture = try ExportFixture()
        defer { fixture.remove() }
        try Self.writeExport(fixture)
        try await TestServer.with { client in
            let summary = try await Importer(store: client.store, options: Self.options(fixture)).run()
            #expect(summary.totalFailed == 0, "\((try? fixture.report()) ?? [])")
            #expect(summary.classes["Post"]?.imported == 4)
            #expect(summary.classes["_User"]?.imported == 3)
            #expect(summary.classes["_Join:comments:Post"]?.imported == 2)
            #expect(summary.classes["_schema"]?.imported == 1)
            try await Self.checkImported(client)
        }
    }

    static func checkImported(_ client: TestClient) async throws {
        // Values, ids and dates.
        let post = try await client.send(.leancloud, .get, "/1.1/classes/Post/post1", auth: .master)
        #expect(post.status == 200)
        #expect(post.json["createdAt"] == "2019-04-29T07:46:41.687Z")
        #expect(post.json["updatedAt"] == "2020-11-04T03:29:17.441Z")
        #expect(post.json["count"] == 42)
        #expect(post.json["ratio"] == .double(0.5))
        #expect(post.json["when"] == ["__type": "Date", "iso": "2015-06-21T18:02:52.249Z"])
        #expect(post.json["where"]?["latitude"] == .double(39.9))
        #expect(post.json["blob"] == ["__type": "Bytes", "base64": "AQID"])
        #expect(post.json["tags"] == ["a", 1])
        #expect(post.json["meta"] == ["nested": ["x": 1]])
        #expect(post.json["author"] == ["__type": "Pointer", "className": "_User", "objectId": "alice1"])
        #expect(post.json["image"]?["objectId"] == "file1")
        let stored = try await client.store.fetch(className: "Post", ids: ["post1", "post4"]).sorted { $0.objectId < $1.objectId }
        try #require(stored.count == 2)
        #expect(stored[0].acl == ["role:Admins": ["read": true]])
        #expect(stored[0].fields["image"] == ["__type": "File", "id": "file1"])
        #expect(stored[1].fields["image"] == ["__type": "File", "id": "file2"])
        #expect(stored[1].fields["gallery"] == [["__type": "File", "id": "file1"]])
        // Files: a storable key, no stale URL for internal files, the URL kept for external ones.
        let files = try await client.store.fetch(className: "_File", ids: ["file1", "file2"]).sorted { $0.objectId < $1.objectId }
        #expect(files[0].fields["key"] == .string(ImportedFileKey.make(from: "gamemaster/abc.png")))
        #expect(files[0].fields["url"] == nil)
        #expect(files[0].acl == [:])
        #expect(files[1].fields["url"] == "https://cdn.example/ext.jpg")
        // Relations.
        let comments = try await client.store.relationTargets(className: "Post", objectId: "post1", field: "comments")
        #expect(Set(comments.map(\.objectId)) == ["c1", "c2"])
        let related = try await client.send(
            .leancloud, .get,
            "/1.1/classes/Comment?where=" + #"{"$relatedTo":{"object":{"__type":"Pointer","className":"Post","objectId":"post1"},"key":"comments"}}"#
                .addingPercentEncoding(withAllowedCharacters: .alphanumerics)!,
            auth: .master
        )
        #expect(related.json["results"]?.arrayValue?.count == 2)
        // Users: the LeanCloud hash logs in, keeps the exported token, and is upgraded to scrypt.
        let wrong = try await client.send(.leancloud, .post, "/1.1/login", json: ["username": "alice", "password": "nope"])
        #expect(wrong.code == 210)
        let login = try await client.send(.leancloud, .post, "/1.1/login", json: ["username": "alice", "password": "password"])
        #expect(login.status == 200)
        #expect(login.json["sessionToken"] == .string(aliceToken))
        #expect(login.json["emailVerified"] == true)
        #expect(try await client.store.account(userId: "alice1")?.password?.hasPrefix("$scrypt$") == true)
        let me = try await client.send(.leancloud, .get, "/1.1/users/me", auth: .session(aliceToken))
        #expect(me.json["objectId"] == "alice1")
        for guess in ["", "password", "abcdef"] {
            #expect(try await client.send(.leancloud, .post, "/1.1/login", json: ["username": "carol", "password": .string(guess)]).status != 200)
        }
        #expect(try await client.store.account(userId: "bob1")?.password == nil)
        // A third-party account is linked to its imported user (the exported objectId), so its log-in finds bob.
        #expect(try await client.store.linkedUser(platform: "github", uid: "gh1")?.objectId == "bob1")
        // ACLs: role-based through a role of roles, {} for the master key alone, none for everyone.
        #expect(try await client.send(.leancloud, .get, "/1.1/classes/Post/post1", auth: .session(aliceToken)).json["title"] == "All types")
        #expect(try await client.send(.leancloud, .get, "/1.1/classes/Post/post1").json["title"] == nil)
        #expect(try await client.send(.leancloud, .get, "/1.1/classes/Post/post2", auth: .session(aliceToken)).json["title"] == nil)
        #expect(try await client.store.fetch(className: "Post", ids: ["post2"]).first?.acl == [:])
        #expect(try await client.store.fetch(className: "Post", ids: ["post3"]).first.map { $0.acl == nil } == true)
        #expect(try await client.send(.leancloud, .get, "/1.1/classes/Post/post3").json["title"] == "No ACL")
        // Installations and the schema's index and relation type.
        #expect(try await client.send(.leancloud, .get, "/1.1/classes/_Installation/inst1", auth: .master).json["deviceType"] == "ios")
        let schema = try #require(try await client.store.loadSchema(of: "Post"))
        #expect(schema.type(of: "comments") == .relation(targetClass: "Comment"))
        #expect(schema.options.indexes["title_1"] == FieldPath(field: "title"))
    }

    @Test("a .tar.gz of the same export imports the same way")
    func archive() async throws {
        let fixture = try ExportFixture()
        defer { fixture.remove() }
        try Self.writeExport(fixture)
        let archive = try fixture.archive()
        try await TestServer.with { client in
            let summary = try await Importer(store: client.store, options: Self.options(fixture, path: archive)).run()
            #expect(summary.totalFailed == 0, "\((try? fixture.report()) ?? [])")
            #expect(summary.classes["Post"]?.imported == 4)
            try await Self.checkImported(client)
        }
    }

    @Test("running the import again skips everything and changes nothing, with or without the state file")
    func idempotent() async throws {
        let fixture = try ExportFixture()
        defer { fixture.remove() }
        try Self.writeExport(fixture)
        try await TestServer.with { client in
            let first = try await Importer(store: client.store, options: Self.options(fixture)).run()
            let before = try await client.store.fetch(className: "Post", ids: ["post1", "post2", "post3", "post4"])
            let again = try await Importer(store: client.store, options: Self.options(fixture)).run()
            #expect(again.totalImported == 0)
            #expect(again.totalSkipped == first.totalImported + first.totalSkipped)
            try FileManager.default.removeItem(atPath: fixture.statePath)
            let fresh = try await Importer(store: client.store, options: Self.options(fixture, batchSize: 2)).run()
            #expect(fresh.totalImported == 1, "only the schema entry is applied again: \(fresh.classes)")
            #expect(fresh.totalFailed == 0)
            #expect(fresh.classes["Post"]?.skipped == 4)
            #expect(fresh.classes["_Join:comments:Post"]?.skipped == 2)
            let after = try await client.store.fetch(className: "Post", ids: ["post1", "post2", "post3", "post4"])
            #expect(Set(after) == Set(before))
            #expect(try await client.store.relationTargets(className: "Post", objectId: "post1", field: "comments").count == 2)
            #expect(try await client.store.relationTargets(className: "_Role", objectId: "role1", field: "users").count == 1)
        }
    }

    @Test("bad lines are reported with file, line and reason, and the other lines are imported")
    func badLines() async throws {
        let fixture = try ExportFixture()
        defer { fixture.remove() }
        try fixture.text(
            "Item.jsonl",
            """
            {"objectId":"ok1","n":1,"createdAt":"2020-01-01T00:00:00.000Z"}
            {"objectId":"broken",
            {"objectId":"badDate","d":{"__type":"Date","iso":"not a date"}}
            {"objectId":"badACL","ACL":{"*":"yes"}}
            {"objectId":"conflict","n":"text"}
            {"objectId":"badCreated","createdAt":"yesterday"}
            [1,2]
            {"objectId":"ok2","n":2}

            """
        )
        try await TestServer.with { client in
            let summary = try await Importer(store: client.store, options: Self.options(fixture)).run()
            #expect(summary.classes["Item"] == ImportSummary.Counts(imported: 2, skipped: 0, failed: 6))
            let report = try fixture.report()
            #expect(Set(report.compactMap { $0["line"]?.intValue }) == [2, 3, 4, 5, 6, 7])
            #expect(report.allSatisfy { $0["file"] == "Item.jsonl" && $0["class"] == "Item" && $0["reason"]?.stringValue?.isEmpty == false })
            #expect(report.first { $0["line"] == 5 }?["objectId"] == "conflict")
            #expect(Set(try await client.store.fetch(className: "Item", ids: ["ok1", "ok2", "conflict"]).map(\.objectId)) == ["ok1", "ok2"])
        }
    }

    @Test("a state file makes the import continue after the last committed line")
    func resume() async throws {
        let fixture = try ExportFixture()
        defer { fixture.remove() }
        try fixture.lines("Item.jsonl", (1...10).map { ["objectId": .string("item\($0)"), "n": .int(Int64($0))] })
        try await TestServer.with { client in
            let absolute = URL(fileURLWithPath: fixture.path).standardizedFileURL.path
            let state: JSON = ["source": .string(absolute), "files": ["Item.jsonl": ["line": 6, "finished": false, "records": 6]]]
            try Data(JSONWriter.bytes(state)).write(to: URL(fileURLWithPath: fixture.statePath))
            let summary = try await Importer(store: client.store, options: Self.options(fixture, batchSize: 3)).run()
            #expect(summary.classes["Item"]?.imported == 4)
            #expect(summary.resumedLines == 6)
            let present = try await client.store.fetch(className: "Item", ids: (1...10).map { "item\($0)" }).map(\.objectId)
            #expect(Set(present) == Set((7...10).map { "item\($0)" }))
            let saved = try JSONParser.parse(try Data(contentsOf: URL(fileURLWithPath: fixture.statePath)))
            #expect(saved["files"]?["Item.jsonl"]?["finished"] == true)
            #expect(saved["files"]?["Item.jsonl"]?["line"] == 10)
        }
    }

    @Test("a dry run validates everything, reports what would fail, and writes nothing")
    func dryRun() async throws {
        let fixture = try ExportFixture()
        defer { fixture.remove() }
        try Self.writeExport(fixture)
        try fixture.lines("Item.jsonl", [["objectId": "i1", "n": 1], ["objectId": "i2", "n": "text"]])
        try await TestServer.with { client in
            let summary = try await Importer(store: client.store, options: Self.options(fixture, dryRun: true)).run()
            #expect(summary.dryRun)
            #expect(summary.classes["Post"]?.imported == 4)
            #expect(summary.classes["Item"] == ImportSummary.Counts(imported: 1, skipped: 0, failed: 1))
            #expect(try await client.store.loadSchema(of: "Post") == nil)
            #expect(try await client.store.fetch(className: "_User", ids: ["alice1"]).isEmpty)
            #expect(!FileManager.default.fileExists(atPath: fixture.statePath))
        }
    }
}
