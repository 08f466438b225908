import CirrusModel
@testable import CirrusServer
@testable import CirrusHTTP
import CirrusTesting
import Foundation
import Testing

/// The request log file (`--request-log`): JSON lines with credentials blanked, batched off the requests' path,
/// turned over past its size, read back by the console with `source=file`.
@Suite("Request log file")
struct RequestLogFileTests {
    static func entry(_ path: String, status: Int = 200, at milliseconds: Int64 = 1_790_000_000_000) -> RequestLog.Entry {
        RequestLog.Entry(
            time: Timestamp(millisecondsSince1970: milliseconds), method: "GET", path: path, dialect: .leancloud, status: status,
            code: status >= 400 ? 101 : nil, milliseconds: 1.25, client: .text("127.0.0.1"), caller: "client"
        )
    }

    @Test("entries are written as JSON lines with credentials blanked, and read back newest first")
    func lines() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let file = RequestLogFile(path: directory.path + "/logs/requests.log")
        try file.prepare()
        file.enqueue(Self.entry("/1.1/classes/Post"))
        file.enqueue(Self.entry("/auth/reset-password?token=LINK-SECRET", status: 404, at: 1_790_000_000_100))
        let log = RequestLog(file: file)
        log.record(Self.entry("/1.1/classes/Post?limit=1", at: 1_790_000_000_200))
        #expect(try String(contentsOfFile: file.path, encoding: .utf8).isEmpty)  // nothing is written on the request's path
        file.flush()
        let text = try String(contentsOfFile: file.path, encoding: .utf8)
        let lines = text.split(separator: "\n")
        #expect(lines.count == 3 && !text.contains("LINK-SECRET"))
        let second = try JSONParser.parse(Array(lines[1].utf8))
        #expect(second["path"] == "/auth/reset-password?token=•••" && second["status"] == 404 && second["code"] == 101)
        #expect(second["time"] == "2026-09-21T14:13:20.100Z" && second["dialect"] == "leancloud" && second["milliseconds"] == 1.3)
        #expect(file.entries().map(\.path) == ["/1.1/classes/Post?limit=1", "/auth/reset-password?token=•••", "/1.1/classes/Post"])
        let reply = try log.reply(query: ["source": "file", "status": "4xx"])
        #expect(reply["results"]?.arrayValue?.count == 1 && reply["file"] == .string(file.path))
    }

    @Test("past its size the file becomes <file>.1, and reading goes on into it; a cut or foreign line is skipped")
    func rotation() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let file = RequestLogFile(path: directory.path + "/requests.log", maximumSize: 600)
        try file.prepare()
        for index in 0..<4 { file.enqueue(Self.entry("/1.1/classes/A\(index)")) }
        file.flush()
        #expect(FileManager.default.fileExists(atPath: file.previousPath) && !FileManager.default.fileExists(atPath: file.path))
        for index in 4..<6 { file.enqueue(Self.entry("/1.1/classes/A\(index)")) }
        file.flush()
        try FileHandle(forWritingAtPath: file.path).map { handle in
            _ = try handle.seekToEnd()
            try handle.write(contentsOf: Data("not json\n{\"time\": 3}\n".utf8))
            try handle.close()
        }
        #expect(file.entries().map(\.path) == (0..<6).reversed().map { "/1.1/classes/A\($0)" })
        #expect(file.entries(window: 150).count <= 1)  // a window cut in a line reads only whole ones
    }

    @Test("when the disk cannot keep up, the entries beyond the bound are counted in a line of their own")
    func bound() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let file = RequestLogFile(path: directory.path + "/requests.log", maximumPending: 3)
        for index in 0..<5 { file.enqueue(Self.entry("/1.1/classes/B\(index)")) }
        file.flush()
        let lines = try String(contentsOfFile: file.path, encoding: .utf8).split(separator: "\n")
        #expect(lines.count == 4 && lines.last?.contains("\"dropped\":2") == true, "\(lines)")
        #expect(file.entries().count == 3)
    }

    @Test("a server with a request log file writes every request to it, and the console reads it; without one it answers 404")
    func served() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path + "/requests.log"
        try await DashboardTests.withPages(configure: { $0.requestLogFile = path }) { client in
            let signed = try #require(try await DashboardTests.signIn(client, ["masterKey": .string(TestServer.keys.masterKey)]).1)
            _ = try await client.send(.parse, .get, "/parse/classes/Note/missing1", auth: .appKey)
            var found: JSON?
            for _ in 0..<200 where found == nil {
                try await Task.sleep(for: .milliseconds(50))
                let reply = try await client.send(.leancloud, .get, "/dashboard/requests?source=file&path=missing1", auth: .none, headers: ["Cookie": signed.cookie])
                found = reply.json["results"]?[0]
            }
            #expect(found?["status"] == 404 && found?["dialect"] == "parse")
            #expect(try String(contentsOfFile: path, encoding: .utf8).contains("/parse/classes/Note/missing1"))
        }
        try await DashboardTests.withPages { client in
            let signed = try #require(try await DashboardTests.signIn(client, ["masterKey": .string(TestServer.keys.masterKey)]).1)
            let reply = try await client.send(.leancloud, .get, "/dashboard/requests?source=file", auth: .none, headers: ["Cookie": signed.cookie])
            #expect(reply.status == 404)
        }
    }

    @Test("a request log file that cannot be written stops the start with a clear error")
    func unwritable() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try Data().write(to: URL(fileURLWithPath: directory.path + "/plain-file"))
        await #expect(throws: ServerStartError.self) {
            var configuration = ServerConfiguration(dataDirectory: directory.path + "/data")
            configuration.requestLogFile = directory.path + "/plain-file/requests.log"
            _ = try await CirrusServer.build(configuration)
        }
    }
}
