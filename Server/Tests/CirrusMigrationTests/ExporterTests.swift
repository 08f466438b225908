import CirrusFileStorage
@testable import CirrusMigration
import CirrusTesting
import Foundation
import Testing

@Suite("The exporter writes LeanCloud's export format from a real store")
struct ExporterTests {
    @Test("every type, relations, users' three password forms, sessions, the schema with class permissions and file contents", arguments: ExportStore.allCases)
    func everything(store: ExportStore) async throws {
        try await ExporterFixture.withServer(store) { client, storage in
            let fixture = try await ExporterFixture.seed(client, storage: storage)
            try await fixture.relate(fixture.things[0], [fixture.tags[1], fixture.tags[0]])
            try await fixture.relate(fixture.things[1], [fixture.tags[2]])
            let out = try TemporaryDirectory()
            defer { out.remove() }
            let folder = out.path + "/export"
            let summary = try await Exporter(store: client.store, files: storage, options: ExportOptions(includeFiles: true, pageSize: 1))
                .export(to: folder)

            let things = try ExportFolder.lines(folder, "Thing.jsonl")
            #expect(things.map { $0["objectId"]?.stringValue } == fixture.things.sorted().map(Optional.some))
            let first = try #require(things.first { $0["objectId"]?.stringValue == fixture.things[0] })
            for (key, value) in ExporterFixture.thingFields(fixture) {
                #expect(first[key] == value, "field \(key)")
            }
            #expect(first["tags"] == ["__type": "Relation", "className": "Tag"])
            #expect(first["ACL"] == ["*": ["read": true, "write": true]])
            let created = try #require(first["createdAt"]?.stringValue)
            #expect(created.count == 24 && created.hasSuffix("Z") && Timestamp(parsing: created) != nil, "bare ISO with milliseconds: \(created)")

            let join = try ExportFolder.lines(folder, "_Join:tags:Thing.jsonl")
            let expectedJoin: [JSON] = ([(fixture.things[0], fixture.tags[0]), (fixture.things[0], fixture.tags[1]), (fixture.things[1], fixture.tags[2])])
                .sorted { ($0.0, $0.1) < ($1.0, $1.1) }
                .map { ["owningId": .string($0.0), "relatedId": .string($0.1)] }
            #expect(join == expectedJoin)
            #expect(summary.joins["_Join:tags:Thing.jsonl"] == 3)

            let users = try ExportFolder.lines(folder, "_User.jsonl")
            func user(_ name: String) -> JSON? { users.first { $0["username"]?.stringValue == name } }
            #expect(user("scrypt")?["scryptPassword"]?.stringValue?.hasPrefix("$scrypt$") == true)
            #expect(user("scrypt")?["sessionToken"]?.stringValue == fixture.stableToken)
            #expect(user("scrypt")?["password"] == nil)
            #expect(user("lean")?["password"] == "c2hhNTEyaGFzaA==")
            #expect(user("lean")?["salt"] == "salt1")
            #expect(user("bcrypt")?["bcryptPassword"]?.stringValue == ExporterFixture.bcrypt)
            #expect(user("bcrypt")?["salt"] == nil)

            let sessions = try ExportFolder.lines(folder, "_Session.jsonl")
            #expect(sessions == [[
                "objectId": "session1", "sessionToken": "r:revocable1",
                "user": ["__type": "Pointer", "className": "_User", "objectId": .string(fixture.users["scrypt"]!)],
                "expiresAt": ["__type": "Date", "iso": .string(Timestamp(millisecondsSince1970: 4_000_000_000_000).iso8601)],
                "installationId": "installation1", "createdWith": ["action": "login", "authProvider": "password"],
                "createdAt": .string(Timestamp(millisecondsSince1970: 1_600_000_000_000).iso8601),
                "updatedAt": .string(Timestamp(millisecondsSince1970: 1_600_000_000_000).iso8601),
            ]])

            let schema = try ExportFolder.json(folder, "_schema.json")
            let thing = try #require(schema["results"]?.arrayValue?.first { $0["className"] == "Thing" })
            let served = try await client.send(.leancloud, .get, "/1.1/schemas/Thing?full=1", auth: .master)
            #expect(thing["classLevelPermissions"] == served.json["classLevelPermissions"])
            #expect(thing["classLevelPermissions"]?["create"] != served.json["classLevelPermissions"]?["find"])
            #expect(thing["fields"]?["ptr"]?["targetClass"] == "Tag")
            #expect(thing["fields"]?["tags"]?["type"] == "Relation")
            #expect(thing["fields"]?["tags"]?["targetClass"] == "Tag")
            #expect(thing["fields"]?["date"]?["type"] == "Date")

            #expect(try ExportFolder.lines(folder, "_Join:users:_Role.jsonl") == [["owningId": .string(fixture.role), "relatedId": .string(fixture.users["lean"]!)]])
            #expect(try ExportFolder.lines(folder, "_Join:roles:_Role.jsonl") == [])
            let roles = try ExportFolder.lines(folder, "_Role.jsonl")
            #expect(roles.first?["users"] == ["__type": "Relation", "className": "_User"])
            #expect(roles.first?["roles"] == ["__type": "Relation", "className": "_Role"])
            #expect(roles.first?["ACL"] == ["*": ["read": true]])

            let files = try ExportFolder.lines(folder, "_File.jsonl")
            #expect(files.map { $0["key"]?.stringValue } == [fixture.fileKey])
            #expect(try String(contentsOfFile: folder + "/files/" + fixture.fileKey, encoding: .utf8) == "hello export")
            #expect(summary.files == 1)

            let manifest = try ExportFolder.json(folder, "manifest.json")
            #expect(manifest["format"] == "cirrus-export")
            #expect(manifest["version"] == 1)
            #expect(manifest["classes"]?["Thing"] == 2)
            #expect(manifest["classes"]?["Tag"] == 3)
            #expect(manifest["classes"]?["_User"] == 3)
            #expect(manifest["classes"]?["_Session"] == 1)
            #expect(manifest["joins"]?.arrayValue?.contains("_Join:tags:Thing.jsonl") == true)
            #expect(manifest["files"] == 1)
            #expect(try ExportFolder.names(out.path) == ["export"], "nothing left beside the output")
        }
    }

    @Test("from and to dates keep the objects updated within the days given, both days included", arguments: ExportStore.allCases)
    func dateFilter(store: ExportStore) async throws {
        try await ExporterFixture.withServer(store) { client, storage in
            let stamps = ["old": "2015-09-19T23:59:59.999Z", "first": "2015-09-20T00:00:00.000Z", "last": "2015-09-21T23:59:59.999Z", "new": "2015-09-22T00:00:00.000Z"]
            for (id, iso) in stamps {
                let stamp = try #require(Timestamp(parsing: iso))
                let object = StoredObject(className: "Dated", objectId: id, createdAt: stamp, updatedAt: stamp, acl: nil, fields: ["n": .string(id)])
                let command = WriteCommand.insert(WriteCommand.Insert(object: object, relations: [], newFields: ["n": .string], maximumSize: 131_072))
                _ = try await client.store.perform([command], atomically: false)[0].get()
            }
            let options = ExportOptions(
                from: try ExportDate.parse("2015-09-20", endOfDay: false, name: "from"), to: try ExportDate.parse("2015-09-21", endOfDay: true, name: "to")
            )
            let out = try TemporaryDirectory()
            defer { out.remove() }
            _ = try await Exporter(store: client.store, files: nil, options: options).export(to: out.path + "/e")
            #expect(try ExportFolder.lines(out.path + "/e", "Dated.jsonl").map { $0["objectId"] } == ["first", "last"])
        }
    }

    @Test("a class filter exports only those classes (and their joins and schema); only-schema writes the schema and manifest alone")
    func classFilterAndOnlySchema() async throws {
        try await ExporterFixture.withServer(.sqlite) { client, storage in
            let fixture = try await ExporterFixture.seed(client, storage: storage)
            try await fixture.relate(fixture.things[0], [fixture.tags[0]])
            let out = try TemporaryDirectory()
            defer { out.remove() }
            _ = try await Exporter(store: client.store, files: nil, options: ExportOptions(classes: ["Tag"])).export(to: out.path + "/tags")
            #expect(try ExportFolder.names(out.path + "/tags") == ["Tag.jsonl", "_schema.json", "manifest.json"])
            #expect(try ExportFolder.json(out.path + "/tags", "_schema.json")["results"]?.arrayValue?.map { $0["className"] } == ["Tag"])
            _ = try await Exporter(store: client.store, files: nil, options: ExportOptions(classes: ["Thing", "_User"])).export(to: out.path + "/things")
            #expect(try ExportFolder.names(out.path + "/things") == [
                "Thing.jsonl", "_Join:tags:Thing.jsonl", "_Session.jsonl", "_User.jsonl", "_schema.json", "manifest.json",
            ])
            _ = try await Exporter(store: client.store, files: nil, options: ExportOptions(classes: ["_Session"])).export(to: out.path + "/sessions")
            #expect(try ExportFolder.names(out.path + "/sessions") == ["_Session.jsonl", "_schema.json", "manifest.json"])
            #expect(try ExportFolder.lines(out.path + "/sessions", "_Session.jsonl").map { $0["sessionToken"] } == ["r:revocable1"])
            await #expect(throws: APIError.self) {
                _ = try await Exporter(store: client.store, files: nil, options: ExportOptions(classes: ["Tag", "Nowhere"])).export(to: out.path + "/nowhere")
            }
            #expect(!FileManager.default.fileExists(atPath: out.path + "/nowhere"))
            _ = try await Exporter(store: client.store, files: nil, options: ExportOptions(onlySchema: true)).export(to: out.path + "/schema")
            #expect(try ExportFolder.names(out.path + "/schema") == ["_schema.json", "manifest.json"])
            let classes = try ExportFolder.json(out.path + "/schema", "_schema.json")["results"]?.arrayValue?.compactMap { $0["className"]?.stringValue }
            #expect(classes == ["Tag", "Thing", "_File", "_Role", "_User"])
            await #expect(throws: ExportError.outputExists(out.path + "/schema")) {
                _ = try await Exporter(store: client.store, files: nil, options: ExportOptions()).export(to: out.path + "/schema")
            }
        }
    }

    @Test("a .tar.gz export lists and extracts with tar, holds what a folder export holds, and keeps names longer than 100 bytes", arguments: ExportStore.allCases)
    func archive(store: ExportStore) async throws {
        try await ExporterFixture.withServer(store) { client, storage in
            let fixture = try await ExporterFixture.seed(client, storage: storage)
            try await fixture.relate(fixture.things[0], [fixture.tags[0]])
            let longClass = "L" + String(repeating: "o", count: 110) + "ng"
            _ = try await ExporterFixture.create(client, longClass, ["v": 1])
            let out = try TemporaryDirectory()
            defer { out.remove() }
            let archive = out.path + "/export.tar.gz"
            let options = ExportOptions(includeFiles: true, pageSize: 2)
            _ = try await Exporter(store: client.store, files: storage, options: options).export(to: archive)
            _ = try await Exporter(store: client.store, files: storage, options: options).export(to: out.path + "/folder")
            let listed = try ExportFolder.run("/usr/bin/tar", ["-tzf", archive]).split(separator: "\n").map(String.init)
            #expect(listed.first == "manifest.json")
            #expect(listed.contains("\(longClass).jsonl"))
            #expect(listed.contains("files/\(fixture.fileKey)"))
            #expect(listed.contains("_Join:tags:Thing.jsonl"))
            try FileManager.default.createDirectory(atPath: out.path + "/extracted", withIntermediateDirectories: true)
            _ = try ExportFolder.run("/usr/bin/tar", ["-xzf", archive, "-C", out.path + "/extracted"])
            var folderNames = try ExportFolder.names(out.path + "/folder")
            #expect(try ExportFolder.names(out.path + "/extracted") == folderNames)
            folderNames.removeAll { $0 == "manifest.json" || $0 == "files" }
            for name in folderNames {
                let a = FileManager.default.contents(atPath: out.path + "/folder/" + name)
                let b = FileManager.default.contents(atPath: out.path + "/extracted/" + name)
                #expect(a == b, "\(name) differs")
            }
            #expect(FileManager.default.contents(atPath: out.path + "/extracted/files/" + fixture.fileKey) == Data("hello export".utf8))
            #expect(try ExportFolder.names(out.path).sorted() == ["export.tar.gz", "extracted", "folder"], "no temporary files left")
        }
    }
}

@Suite("Export building blocks")
struct ExportPartsTests {
    @Test(
        "stored passwords become the columns of their form",
        arguments: [
            ("$leancloud$s4lt$aGFzaA==", ["password": "aGFzaA==", "salt": "s4lt"]),
            ("$2a$10$abcdefghijklmnopqrstuu", ["bcryptPassword": "$2a$10$abcdefghijklmnopqrstuu"]),
            ("$2y$12$x", ["bcryptPassword": "$2y$12$x"]),
            ("$scrypt$ln=15,r=8,p=1$c2FsdA$a2V5", ["scryptPassword": "$scrypt$ln=15,r=8,p=1$c2FsdA$a2V5"]),
            ("plain", [:]),
        ] as [(String, [String: JSON])]
    )
    func passwordColumns(stored: String, expected: [String: JSON]) {
        #expect(ExportEncoder.passwordColumns(stored) == expected)
    }

    @Test(
        "export dates: a day, a day's end, an instant, and refusals",
        arguments: [
            ("2015-09-20", false, "2015-09-20T00:00:00.000Z"), ("2015-09-20", true, "2015-09-21T00:00:00.000Z"),
            ("2015-09-20T10:00:00.000Z", true, "2015-09-20T10:00:00.000Z"), ("2015-9-20", false, nil), ("yesterday", false, nil),
            ("2015-13-40", false, nil),
        ] as [(String, Bool, String?)]
    )
    func dates(text: String, endOfDay: Bool, expected: String?) {
        let parsed = try? ExportDate.parse(text, endOfDay: endOfDay, name: "d")
        #expect(parsed?.iso8601 == expected)
    }

    @Test("a class list is split on commas and refuses invalid names")
    func classList() throws {
        #expect(try ExportOptions.classList(" Post, _User ,") == ["Post", "_User"])
        #expect(try ExportOptions.classList("") == nil)
        #expect(throws: APIError.self) { try ExportOptions.classList("Post,no-dash") }
    }

    @Test("a PAX record's length counts itself", arguments: [1, 90, 95, 96, 200, 1000])
    func paxRecord(length: Int) {
        let value = String(repeating: "x", count: length)
        let record = TarWriter.paxRecord(key: "path", value: value)
        let text = String(decoding: record, as: UTF8.self)
        #expect(text.hasSuffix(" path=\(value)\n"))
        #expect(Int(text.prefix { $0 != " " }) == record.count)
    }

    @Test("an entry of 8 GiB or more carries its size in a PAX record, a long name its path")
    func paxHeaders() throws {
        let collected = ResultBox<[UInt8]>()
        collected.value = []
        var tar = TarWriter { collected.value! += $0 }
        let name = String(repeating: "n", count: 120)
        try tar.beginFile(name: name, size: 9 * 1024 * 1024 * 1024, modified: Date(timeIntervalSince1970: 0))
        let bytes = try #require(collected.value)
        #expect(bytes.count == 3 * 512)
        #expect(bytes[156] == UInt8(ascii: "x"))
        let records = String(decoding: bytes[512..<1024].prefix { $0 != 0 }, as: UTF8.self)
        #expect(records.contains(" path=\(name)\n"))
        #expect(records.contains(" size=9663676416\n"))
        #expect(bytes[1024 + 156] == UInt8(ascii: "0"))
        #expect(String(decoding: bytes[(1024 + 124)..<(1024 + 135)], as: UTF8.self) == "00000000000")
    }
}
