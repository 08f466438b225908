import CirrusFileStorage
import CirrusMigration
import CirrusTesting
@testable import CirrusServices
import Foundation
import Testing

@Suite("Export, import into a new store, export again")
struct ExportRoundTripTests {
    @Test("the second export is identical to the first (but for exportedAt), file contents included; passwords, session tokens and revocable sessions still work", arguments: ExportStore.allCases)
    func roundTrip(store: ExportStore) async throws {
        let out = try TemporaryDirectory()
        defer { out.remove() }
        let first = out.path + "/first"
        let second = out.path + "/second"
        let passwords = try await ExporterFixture.withServerResult(store) { client, storage in
            let fixture = try await ExporterFixture.seed(client, storage: storage)
            try await fixture.relate(fixture.things[0], [fixture.tags[1], fixture.tags[0]])
            try await fixture.relate(fixture.things[1], [fixture.tags[2]])
            // A real LeanCloud hash of "pw-lean", to log in with after the round trip.
            let digest = Data(PasswordHasher.leanCloudDigest("pw-lean", salt: "s4lt")).base64EncodedString()
            _ = try await client.store.perform([.account(.setPassword(userId: fixture.users["lean"]!, password: "$leancloud$s4lt$\(digest)"))], atomically: false)[0].get()
            _ = try await Exporter(store: client.store, files: storage, options: ExportOptions(includeFiles: true, pageSize: 2)).export(to: first)
            var stored: [String: String] = [:]
            for (name, id) in fixture.users { stored[name] = try await client.store.account(userId: id)?.password }
            stored["stableToken"] = fixture.stableToken
            stored["leanId"] = fixture.users["lean"]
            return stored
        }
        try await ExporterFixture.withServer(store) { client, storage in
            let options = ImportOptions(source: .leancloud, path: first, statePath: out.path + "/state.json", reportPath: out.path + "/report.jsonl")
            let carrier = try FileCarrier(
                storage: storage, directory: URL(fileURLWithPath: first + "/files"), download: false, journal: URL(fileURLWithPath: out.path + "/journal")
            )
            let summary = try await Importer(store: client.store, options: options, carrier: carrier).run()
            let report = (try? String(contentsOfFile: out.path + "/report.jsonl", encoding: .utf8)) ?? ""
            #expect(summary.totalFailed == 0, "\(report)")
            #expect(summary.filesCopied == 1)
            _ = try await Exporter(store: client.store, files: storage, options: ExportOptions(includeFiles: true, pageSize: 3)).export(to: second)

            let names = try ExportFolder.names(first)
            #expect(names == [
                "Tag.jsonl", "Thing.jsonl", "_File.jsonl", "_Join:roles:_Role.jsonl", "_Join:tags:Thing.jsonl", "_Join:users:_Role.jsonl",
                "_Role.jsonl", "_Session.jsonl", "_User.jsonl", "_schema.json", "files", "manifest.json",
            ])
            let contents = try ExportFolder.names(first + "/files")
            #expect(contents.count == 1)
            #expect(try ExportFolder.names(second + "/files") == contents)
            for key in contents {
                #expect(FileManager.default.contents(atPath: first + "/files/" + key) == FileManager.default.contents(atPath: second + "/files/" + key))
            }
            #expect(try ExportFolder.names(second) == names)
            for name in names where name != "manifest.json" && name != "files" {
                let a = FileManager.default.contents(atPath: first + "/" + name)
                let b = FileManager.default.contents(atPath: second + "/" + name)
                #expect(a == b, "\(name) differs:\n\(String(decoding: a ?? Data(), as: UTF8.self))\n\(String(decoding: b ?? Data(), as: UTF8.self))")
            }
            var manifests = try [ExportFolder.json(first, "manifest.json"), ExportFolder.json(second, "manifest.json")].map { $0.objectValue ?? [:] }
            #expect(manifests[0]["exportedAt"] != nil)
            manifests[0]["exportedAt"] = nil
            manifests[1]["exportedAt"] = nil
            #expect(manifests[0] == manifests[1])

            let users = try ExportFolder.lines(second, "_User.jsonl")
            for user in users {
                let name = try #require(user["username"]?.stringValue)
                let id = try #require(user["objectId"]?.stringValue)
                #expect(try await client.store.account(userId: id)?.password == passwords[name], "\(name)'s stored password")
            }
            let login = try await client.send(.leancloud, .post, "/1.1/login", json: ["username": "scrypt", "password": "pw-scrypt"])
            #expect(login.status == 200, "\(login.bodyText)")
            #expect(login.json["sessionToken"] == passwords["stableToken"].map(JSON.string))
            let roles = try await client.store.roleNames(userId: passwords["leanId"] ?? "")
            #expect(roles == ["Admins"], "the imported role still lists its user")
            let lean = try await client.send(.leancloud, .post, "/1.1/login", json: ["username": "lean", "password": "pw-lean"])
            #expect(lean.status == 200, "the LeanCloud hash still logs in: \(lean.bodyText)")
            let wrong = try await client.send(.leancloud, .post, "/1.1/login", json: ["username": "lean", "password": "pw-other"])
            #expect(wrong.status != 200)
            for token in [passwords["stableToken"] ?? "", "r:revocable1"] {
                let me = try await client.send(.leancloud, .get, "/1.1/users/me", auth: .session(token))
                #expect(me.json["username"] == "scrypt", "\(token): \(me.bodyText)")
            }
        }
    }
}
