import CirrusModel
import CirrusTesting
import Foundation
import Testing

@Suite("cirrus export")
struct ExportCommandTests {
    @Test("cirrus export writes a .tar.gz tar can read while the server runs, with a summary per class; bad input fails with a message and writes nothing")
    func exportsALiveDatabase() async throws {
        try await Sandbox.with { sandbox in
            let server = try await sandbox.startServer()
            for n in 0..<3 {
                let created = try await server.client.send("POST", "/1.1/classes/Post", json: ["n": .int(Int64(n))])
                #expect(created.status == 201)
            }
            let signup = try await server.client.send("POST", "/1.1/users", json: ["username": "ann", "password": "secret"])
            #expect(signup.status == 201)
            let archive = sandbox.path("export.tar.gz")
            let command = try sandbox.launch(["export", "--data-dir", sandbox.dataDirectory, archive])
            #expect(try await command.waitForExit() == .exited(0), "\(command.output)")
            #expect(command.output.contains("Post: 3 objects"))
            #expect(command.output.contains("_User: 1 object\n"))
            #expect(command.output.contains("exported to \(archive)"))
            let listing = try Self.tar(["-tzf", archive])
            #expect(listing.split(separator: "\n").map(String.init) == ["manifest.json", "_schema.json", "Post.jsonl", "_Session.jsonl", "_User.jsonl"])

            let folder = sandbox.path("schema")
            let schemaOnly = try sandbox.launch(["export", "--data-dir", sandbox.dataDirectory, "--only-schema", "--classes", "Post", folder])
            #expect(try await schemaOnly.waitForExit() == .exited(0), "\(schemaOnly.output)")
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder).sorted() == ["_schema.json", "manifest.json"])

            let again = try sandbox.launch(["export", "--data-dir", sandbox.dataDirectory, archive])
            #expect(try await again.waitForExit() != .exited(0))
            #expect(again.output.contains("already exists"))
            for arguments in [["--from-date", "yesterday"], ["--classes", "Nowhere"], ["--classes", "no-dash"]] {
                let bad = try sandbox.launch(["export", "--data-dir", sandbox.dataDirectory] + arguments + [sandbox.path("bad.tar.gz")])
                #expect(try await bad.waitForExit() != .exited(0), "\(arguments)")
                #expect(!FileManager.default.fileExists(atPath: sandbox.path("bad.tar.gz")))
            }
            let entries = try FileManager.default.contentsOfDirectory(atPath: sandbox.root)
            #expect(!entries.contains { $0.contains(".partial-") }, "\(entries)")
            try await server.stop()
        }
    }

    static func tar(_ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/tar")
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        return String(decoding: data, as: UTF8.self)
    }
}
