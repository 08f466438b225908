import CirrusMigration
import CirrusModel
import CirrusStorage
import CirrusTesting
import Foundation
import Testing

@Suite("Importing Parse and Bmob exports")
struct ParseAndBmobImportTests {
    static let bcrypt = "$2a$10$ICV5UeEf3lICfnE9W9pN9.O9Ved/ozNo7G83Qbdk5rmyvY8l16MIK"

    @Test("a Parse export: {\"results\":[…]} files, bcrypt hashes kept, revocable sessions, _Join with U+A789, file values by name")
    func parse() async throws {
        let fixture = try ExportFixture()
        defer { fixture.remove() }
        try fixture.document(
            "_User.json",
            [
                "results": [
                    [
                        "objectId": "pUser00001", "username": "paula", "bcryptPassword": .string(Self.bcrypt), "createdAt": "2012-03-08T23:36:14.832Z",
                        "updatedAt": "2012-03-08T23:36:14.832Z", "ACL": ["*": ["read": true]], "_email_verify_token": "secret",
                    ],
                    ["objectId": "pUser00002", "username": "hashed", "_hashed_password": .string(Self.bcrypt), "createdAt": "2012-03-08T23:36:14.832Z"],
                ]
            ]
        )
        try fixture.document(
            "Song.json",
            [
                "results": [
                    [
                        "objectId": "song000001", "name": "plate", "fans": ["__type": "Relation", "className": "_User"],
                        "cover": ["__type": "File", "name": "tfss-abc-cover.png", "url": "http://files.parsetfss.com/tfss-abc-cover.png"],
                        "createdAt": "2012-03-08T23:36:14.832Z", "updatedAt": "2012-03-09T00:00:00.000Z",
                    ]
                ]
            ]
        )
        try fixture.document("_Join\u{A789}fans\u{A789}Song.json", ["results": [["owningId": "song000001", "relatedId": "pUser00001"]]])
        try fixture.document(
            "_Session.json",
            [
                "results": [
                    [
                        "objectId": "sess000001", "sessionToken": "r:parsetoken123", "user": ["__type": "Pointer", "className": "_User", "objectId": "pUser00001"],
                        "expiresAt": ["__type": "Date", "iso": "2099-01-01T00:00:00.000Z"], "installationId": "inst-1",
                        "createdWith": ["action": "login", "authProvider": "password"], "createdAt": "2012-03-08T23:36:14.832Z",
                    ],
                    ["objectId": "sess000002", "sessionToken": "r:orphan", "user": ["__type": "Pointer", "className": "_User", "objectId": "nobody"]],
                ]
            ]
        )
        try await TestServer.with { client in
            let options = ImportOptions(source: .parse, path: fixture.path, statePath: fixture.statePath, reportPath: fixture.reportPath)
            let summary = try await Importer(store: client.store, options: options).run()
            #expect(summary.classes["_User"]?.imported == 2)
            #expect(summary.classes["_Session"] == ImportSummary.Counts(imported: 1, skipped: 0, failed: 1))
            #expect(summary.classes["_Join:fans:Song"]?.imported == 1)
            #expect(try await client.store.account(userId: "pUser00001")?.password == Self.bcrypt)
            #expect(try await client.store.account(userId: "pUser00002")?.password == Self.bcrypt)
            let user = try #require(try await client.store.fetch(className: "_User", ids: ["pUser00001"]).first)
            #expect(user.fields["_email_verify_token"] == nil && user.fields["bcryptPassword"] == nil)
            let me = try await client.send(.parse, .get, "/parse/users/me", auth: .session("r:parsetoken123"))
            #expect(me.json["objectId"] == "pUser00001")
            let session = try #require(try await client.store.session(token: "r:parsetoken123"))
            #expect(session.kind == .revocable && session.installationId == "inst-1")
            #expect(try await client.store.relationTargets(className: "Song", objectId: "song000001", field: "fans").map(\.objectId) == ["pUser00001"])
            let song = try #require(try await client.store.fetch(className: "Song", ids: ["song000001"]).first)
            #expect(song.createdAt.iso8601 == "2012-03-08T23:36:14.832Z")
            #expect(song.fields["cover"]?["url"] == "http://files.parsetfss.com/tfss-abc-cover.png")
            #expect(try fixture.report().first?["line"] == 2)
        }
    }

    @Test("a Parse user imported with a bcrypt hash logs in with the original password in the Parse and LeanCloud dialects, upgraded to scrypt")
    func bcryptLogIn() async throws {
        let fixture = try ExportFixture()
        defer { fixture.remove() }
        // OpenBSD's published vector: "U*U" at cost 5.
        let hash = "$2a$05$CCCCCCCCCCCCCCCCCCCCC.E5YPO9kmyuRGyh0XouQYb4YMJKvyOeW"
        try fixture.document("_User.json", ["results": [["objectId": "pUser00003", "username": "bee", "bcryptPassword": .string(hash)]]])
        try await TestServer.with { client in
            let options = ImportOptions(source: .parse, path: fixture.path, statePath: fixture.statePath, reportPath: fixture.reportPath)
            #expect(try await Importer(store: client.store, options: options).run().classes["_User"]?.imported == 1)
            let wrong = try await client.send(.parse, .post, "/parse/login", json: ["username": "bee", "password": "U*V"])
            #expect(wrong.status == 404 && wrong.json["code"] == 101, "\(wrong.bodyText)")
            let parse = try await client.send(.parse, .post, "/parse/login", json: ["username": "bee", "password": "U*U"])
            #expect(parse.status == 200, "\(parse.bodyText)")
            #expect(parse.json["objectId"] == "pUser00003")
            #expect(try await client.store.account(userId: "pUser00003")?.password?.hasPrefix("$scrypt$") == true)
            let leancloud = try await client.send(.leancloud, .post, "/1.1/login", json: ["username": "bee", "password": "U*U"])
            #expect(leancloud.status == 200, "\(leancloud.bodyText)")
        }
    }

    @Test("a Bmob export: no objectIds (derived, stable across runs), Beijing-time dates, users listed for a password reset")
    func bmob() async throws {
        let fixture = try ExportFixture()
        defer { fixture.remove() }
        try fixture.document(
            "GameScore.json",
            [
                ["score": 10, "playedAt": ["__type": "Date", "iso": "2011-08-20 02:06:57"], "createdAt": "2011-08-20 02:06:57", "updatedAt": "2011-08-21 02:06:57"],
                ["score": 20, "createdAt": "2011-08-20 02:06:58", "updatedAt": "2011-08-20 02:06:58"],
            ]
        )
        try fixture.document(
            "_User.json",
            ["results": [["objectId": "e1kXT22L", "username": "bo", "createdAt": "2015-01-01 08:00:00", "updatedAt": "2015-01-01 08:00:00"]]]
        )
        try await TestServer.with { client in
            let options = ImportOptions(source: .bmob, path: fixture.path, statePath: fixture.statePath, reportPath: fixture.reportPath)
            let summary = try await Importer(store: client.store, options: options).run()
            #expect(summary.classes["GameScore"]?.imported == 2)
            #expect(summary.passwordResets == ["bo"])
            #expect(summary.table().contains("must reset their password"))
            #expect(try fixture.report().first?["kind"] == "passwordReset")
            let user = try #require(try await client.store.fetch(className: "_User", ids: ["e1kXT22L"]).first)
            #expect(user.createdAt.iso8601 == "2015-01-01T00:00:00.000Z")
            let found = try await client.send(.leancloud, .get, "/1.1/classes/GameScore?order=score", auth: .master)
            let rows = try #require(found.json["results"]?.arrayValue)
            #expect(rows.count == 2)
            #expect(rows[0]["createdAt"] == "2011-08-19T18:06:57.000Z")
            #expect(rows[0]["playedAt"] == ["__type": "Date", "iso": "2011-08-19T18:06:57.000Z"])
            #expect(rows[0]["objectId"]?.stringValue?.count == 10)
            try FileManager.default.removeItem(atPath: fixture.statePath)
            let again = try await Importer(store: client.store, options: options).run()
            #expect(again.classes["GameScore"] == ImportSummary.Counts(imported: 0, skipped: 2, failed: 0))
        }
    }
}
