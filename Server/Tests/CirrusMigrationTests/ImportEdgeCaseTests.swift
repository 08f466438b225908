import CirrusMigration
import CirrusModel
import CirrusServices
import CirrusStorage
import CirrusTesting
import Foundation
import Testing

@Suite("Importing: users, schema conflicts and relations that cannot be added")
struct ImportEdgeCaseTests {
    static func run(_ fixture: ExportFixture, _ client: TestClient, dryRun: Bool = false) async throws -> ImportSummary {
        let options = ImportOptions(
            source: .leancloud, path: fixture.path, statePath: fixture.statePath, reportPath: fixture.reportPath, dryRun: dryRun
        )
        return try await Importer(store: client.store, options: options).run()
    }

    @Test("a Cirrus scrypt hash and a password in clear log in; a bad e-mail and a taken username fail alone")
    func userPasswords() async throws {
        let fixture = try ExportFixture()
        defer { fixture.remove() }
        let scrypt = try PasswordHasher(cost: PasswordHasher.Cost(log2N: 4, blockSize: 8, parallelism: 1)).hash("s3cret")
        try fixture.lines(
            "_User.jsonl",
            [
                ["objectId": "u1", "username": "scrypted", "scryptPassword": .string(scrypt)],
                ["objectId": "u2", "username": "plain", "password": "clear-text"],
                ["objectId": "u3", "username": "bademail", "email": "not an address"],
                ["objectId": "u4", "username": "plain"],
                ["objectId": "u5", "username": "weird", "bcryptPassword": "md5:abc"],
            ]
        )
        try await TestServer.with { client in
            let summary = try await Self.run(fixture, client)
            #expect(summary.classes["_User"] == ImportSummary.Counts(imported: 2, skipped: 0, failed: 3))
            #expect(Set(try fixture.report().compactMap { $0["objectId"]?.stringValue }) == ["u3", "u4", "u5"])
            for (name, password) in [("scrypted", "s3cret"), ("plain", "clear-text")] {
                let login = try await client.send(.leancloud, .post, "/1.1/login", json: ["username": .string(name), "password": .string(password)])
                #expect(login.status == 200, "\(name): \(login.bodyText)")
            }
            let user = try #require(try await client.store.fetch(className: "_User", ids: ["u1", "u2"]).first)
            #expect(user.fields["scryptPassword"] == nil && user.fields["password"] == nil)
        }
    }

    @Test("a _schema.json type that conflicts with the store's is reported, in a dry run too; the rest of the schema applies")
    func schemaConflict() async throws {
        let fixture = try ExportFixture()
        defer { fixture.remove() }
        try fixture.document(
            "_schema.json",
            [
                "results": [
                    ["className": "Book", "fields": ["pages": ["type": "String"]]],
                    ["className": "Shelf", "fields": ["size": ["type": "Number"], "anything": ["type": "Any"]], "classLevelPermissions": ["create": ["*": true]]],
                    ["fields": [:]],
                ]
            ]
        )
        try await TestServer.with { client in
            let created = try await client.send(.leancloud, .post, "/1.1/classes/Book", json: ["pages": 100], auth: .master)
            #expect(created.status == 201)
            let dry = try await Self.run(fixture, client, dryRun: true)
            #expect(dry.classes["_schema"] == ImportSummary.Counts(imported: 1, skipped: 0, failed: 2))
            #expect(try await client.store.loadSchema(of: "Shelf") == nil)
            let summary = try await Self.run(fixture, client)
            #expect(summary.classes["_schema"] == ImportSummary.Counts(imported: 1, skipped: 0, failed: 2))
            #expect(try await client.store.loadSchema(of: "Shelf")?.type(of: "size") == .number)
            #expect(try await client.store.loadSchema(of: "Book")?.type(of: "pages") == .number)
            let reasons = try fixture.report().compactMap { $0["reason"]?.stringValue }
            #expect(reasons.contains { $0.hasPrefix("Book:") && $0.contains("pages") })
        }
    }

    @Test("relation members of a missing owner, or of a relation whose target class is unknown, are reported")
    func relationFailures() async throws {
        let fixture = try ExportFixture()
        defer { fixture.remove() }
        try fixture.lines("Team.jsonl", [["objectId": "t1", "name": "a", "members": ["__type": "Relation", "className": "_User"]]])
        try fixture.lines("_User.jsonl", [["objectId": "m1", "username": "member"]])
        try fixture.lines(
            "_Join:members:Team.jsonl",
            [["owningId": "t1", "relatedId": "m1"], ["owningId": "ghost", "relatedId": "m1"], ["owningId": "t1"], ["owningId": "t1", "relatedId": "m1"]]
        )
        try fixture.lines("_Join:fans:Team.jsonl", [["owningId": "t1", "relatedId": "m1"]])
        try await TestServer.with { client in
            let summary = try await Self.run(fixture, client)
            #expect(summary.classes["_Join:members:Team"] == ImportSummary.Counts(imported: 1, skipped: 1, failed: 2))
            #expect(summary.classes["_Join:fans:Team"]?.failed == 1)
            #expect(try await client.store.relationTargets(className: "Team", objectId: "t1", field: "members").map(\.objectId) == ["m1"])
            let lines = try fixture.report().filter { $0["file"] == "_Join:members:Team.jsonl" }.compactMap { $0["line"]?.intValue }
            #expect(Set(lines) == [2, 3])
        }
    }

    @Test("file values in every exported shape are linked to the imported _File row; unknown ones stay as exported")
    func fileShapes() async throws {
        let fixture = try ExportFixture()
        defer { fixture.remove() }
        try fixture.lines(
            "_File.jsonl",
            [["objectId": "f1", "key": "k1.png", "name": "one.png", "url": "https://files.old/k1.png", "mime_type": "image/png", "metaData": ["size": 1]]]
        )
        try fixture.lines(
            "Photo.jsonl",
            [
                ["objectId": "p1", "image": ["__type": "File", "objectId": "f1", "url": "https://files.old/k1.png", "name": "one.png"]],
                ["objectId": "p2", "image": ["__type": "File", "name": "k1.png", "url": "https://parse.old/k1.png"]],
                ["objectId": "p3", "image": ["__type": "File", "filename": "x.png", "url": "https://files.old/k1.png", "cdn": "upyun"]],
                ["objectId": "p4", "image": ["__type": "File", "group": "group1", "filename": "1.xml", "url": "M00/01/14/sd2lkds0.xml"]],
            ]
        )
        try await TestServer.with { client in
            let summary = try await Self.run(fixture, client)
            #expect(summary.totalFailed == 0, "\((try? fixture.report()) ?? [])")
            let photos = Dictionary(uniqueKeysWithValues: try await client.store.fetch(className: "Photo", ids: ["p1", "p2", "p3", "p4"]).map { ($0.objectId, $0) })
            for id in ["p1", "p2", "p3"] { #expect(photos[id]?.fields["image"] == ["__type": "File", "id": "f1"], "\(id)") }
            #expect(photos["p4"]?.fields["image"]?["group"] == "group1")
            let row = try #require(try await client.store.fetch(className: "_File", ids: ["f1"]).first)
            #expect(row.fields["key"] == "k1.png" && row.fields["url"] == nil && row.fields["metaData"]?["size"] == 1)
        }
    }
}
