import CirrusModel
import CirrusTesting
import Foundation
import Testing

@Suite("cirrus import: file contents")
struct ImportFilesCommandTests {
    @Test("cirrus import --files copies each file's content under its new key, reports the one it cannot find, and the server then serves it")
    func filesFromFolder() async throws {
        try await Sandbox.with { sandbox in
            let export = sandbox.path("export")
            let folder = sandbox.path("old-files")
            try FileManager.default.createDirectory(atPath: folder + "/gamemaster", withIntermediateDirectories: true)
            try FileManager.default.createDirectory(atPath: export, withIntermediateDirectories: true)
            try Data("hello, file".utf8).write(to: URL(fileURLWithPath: folder + "/gamemaster/avatar.png"))
            let files = [
                #"{"objectId":"5f1e00000000000000000001","key":"gamemaster/avatar.png","name":"avatar.png","mime_type":"image/png","url":"http://lc-old.example.com/gamemaster/avatar.png","metaData":{"size":11,"owner":"unknown"},"createdAt":"2020-01-01T00:00:00.000Z","updatedAt":"2020-01-01T00:00:00.000Z","ACL":{"*":{"read":true}}}"#,
                #"{"objectId":"5f1e00000000000000000002","key":"missing.txt","name":"missing.txt","mime_type":"text/plain","url":"http://lc-old.example.com/missing.txt","metaData":{"size":3},"createdAt":"2020-01-01T00:00:00.000Z","updatedAt":"2020-01-01T00:00:00.000Z","ACL":{"*":{"read":true}}}"#,
            ]
            try Data((files.joined(separator: "\n") + "\n").utf8).write(to: URL(fileURLWithPath: export + "/_File.jsonl"))
            let post = #"{"objectId":"5f1e000000000000000000a1","photo":{"__type":"File","id":"5f1e00000000000000000001"},"createdAt":"2020-01-02T00:00:00.000Z","updatedAt":"2020-01-02T00:00:00.000Z","ACL":{"*":{"read":true}}}"#
            try Data((post + "\n").utf8).write(to: URL(fileURLWithPath: export + "/Post.jsonl"))
            let report = sandbox.path("report.jsonl")
            let arguments = [
                "import", "--from", "leancloud", export, "--data-dir", sandbox.dataDirectory, "--files", folder, "--report", report, "--quiet",
            ]

            let run = try sandbox.launch(arguments)
            #expect(try await run.waitForExit() == .exited(2), "\(run.output)")
            let failures = String(decoding: FileManager.default.contents(atPath: report) ?? Data(), as: UTF8.self)
            #expect(failures.contains("missing.txt"), "\(failures)")
            #expect(!failures.contains("avatar.png"), "\(failures)")

            // Again, with the folder gone: the journal knows the copied file, and only the missing one fails again.
            try FileManager.default.removeItem(atPath: folder + "/gamemaster/avatar.png")
            let again = try sandbox.launch(arguments)
            #expect(try await again.waitForExit() == .exited(2), "\(again.output)")

            let server = try await sandbox.startServer()
            let read = try await server.client.send("GET", "/1.1/classes/Post/5f1e000000000000000000a1")
            let url = try #require(read.json["photo"]?["url"]?.stringValue, "\(read.bodyText)")
            #expect(url.hasPrefix(server.client.baseURL + "/files/"), "\(url)")
            #expect(!url.contains("lc-old.example.com"))
            let path = String(url.dropFirst(server.client.baseURL.count))
            let content = try await server.client.send("GET", path)
            #expect(content.status == 200)
            #expect(content.bodyText == "hello, file")
            try await server.stopCleanly()
        }
    }

    @Test("--file-domain without --download-files, or not an http(s) URL, is refused before anything is read", arguments: [
        (["--file-domain", "https://files.example.com"], "needs --download-files"),
        (["--download-files", "--file-domain", "ftp://files.example.com"], "must be an http or https URL"),
    ])
    func fileDomainValidation(_ extra: [String], _ message: String) async throws {
        try await Sandbox.with { sandbox in
            let run = try sandbox.launch(["import", "--from", "leancloud", sandbox.path("nowhere"), "--data-dir", sandbox.dataDirectory] + extra)
            #expect(try await run.waitForExit() == .exited(64))
            #expect(run.output.contains(message), "\(run.output)")
            #expect(!FileManager.default.fileExists(atPath: sandbox.dataDirectory))
        }
    }
}
