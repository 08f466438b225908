import CirrusModel
import CirrusServer
import CirrusServices
import CirrusTesting
import Foundation
import Testing

/// Uploads that cannot be replayed, contents that cannot run as the API's origin, ranges that cannot overflow, and an
/// upload rate no path escapes.
@Suite("File security")
struct FileSecurityTests {
    /// The fileTokens reply for a file announced with `metaData`.
    static func tokens(_ client: TestClient, name: String, metaData: JSON) async throws -> (path: String, reply: JSON) {
        let reply = try await client.request(.leancloud, .post, "/fileTokens", json: ["name": .string(name), "metaData": metaData])
        #expect(reply.status == 200, "\(reply.bodyText)")
        return (FileUploadTests.local(reply.json["upload_url"]?.stringValue), reply.json)
    }

    static func put(_ client: TestClient, _ path: String, _ content: String) async throws -> TestReply {
        try await client.send(.leancloud, .put, path, body: content, auth: .none, headers: ["Content-Type": "text/plain"])
    }

    static func download(_ client: TestClient, _ key: String?, headers: [String: String] = [:]) async throws -> TestReply {
        try await client.send(.leancloud, .get, "/files/\(key ?? "")", body: nil, auth: .none, headers: headers)
    }

    @Test("an upload URL stores its content once: a second PUT, even concurrent, is refused and the content never changes")
    func singleUse() async throws {
        try await TestServer.with { client in
            let (path, reply) = try await Self.tokens(client, name: "once.txt", metaData: [:])
            #expect(try await Self.put(client, path, "first").status == 200)
            let again = try await Self.put(client, path, "second")
            #expect(again.status == 401, "\(again.bodyText)")
            #expect(try await Self.download(client, reply["key"]?.stringValue).bodyText == "first")
            let (racePath, race) = try await Self.tokens(client, name: "race.txt", metaData: [:])
            let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
                for index in 0..<8 { group.addTask { try await Self.put(client, racePath, "content \(index)").status } }
                return try await group.reduce(into: [Int]()) { $0.append($1) }
            }
            #expect(statuses.filter { $0 == 200 }.count == 1, "\(statuses)")
            #expect(statuses.filter { $0 == 401 }.count == 7, "\(statuses)")
            let stored = try await Self.download(client, race["key"]?.stringValue)
            #expect(stored.bodyText.hasPrefix("content "))
            // The SDK reports a failed upload: the row and content go, and the URL cannot store anything any more.
            #expect(try await client.request(.leancloud, .post, "/fileCallback", json: ["token": race["token"] ?? .null, "result": false]).status == 200)
            #expect(try await Self.put(client, racePath, "after the callback").status == 404)
            #expect(try await Self.download(client, race["key"]?.stringValue).status == 404)
        }
    }

    @Test("the PUT must bring the size and MD5 announced in fileTokens; a failed PUT leaves the URL usable")
    func boundToSizeAndChecksum() async throws {
        try await TestServer.with { client in
            let content = "checked content"
            let md5 = FileService.checksum(Array(content.utf8))
            let (path, reply) = try await Self.tokens(client, name: "c.txt", metaData: ["size": .int(Int64(content.utf8.count)), "_checksum": .string(md5)])
            let shorter = try await Self.put(client, path, "checked")
            #expect(shorter.status == 400)
            #expect(shorter.json["error"]?.stringValue?.contains("bytes") == true)
            let other = try await Self.put(client, path, "checked CONTENT")
            #expect(other.status == 400)
            #expect(other.json["error"]?.stringValue?.contains("MD5") == true)
            #expect(try await Self.download(client, reply["key"]?.stringValue).status == 404)
            #expect(try await Self.put(client, path, content).status == 200)
            #expect(try await Self.download(client, reply["key"]?.stringValue).bodyText == content)
            let (loose, _) = try await Self.tokens(client, name: "l.txt", metaData: ["_checksum": "not-an-md5"])
            #expect(try await Self.put(client, loose, "anything").status == 200)
        }
    }

    @Test("a batch of fileTokens counts every token against the client's upload rate")
    func batchRate() async throws {
        try await TestServer.with(configure: {
            $0.clientAddressHeader = "X-Forwarded-For"
            $0.uploadRateLimit = RateLimit([RateLimit.Window(count: 5, milliseconds: 60_000)])
        }) { client in
            let requests = (0..<60).map { index -> JSON in ["method": "POST", "path": "/1.1/fileTokens", "body": ["name": .string("f\(index).txt")]] }
            let reply = try await client.request(.leancloud, .post, "/batch", json: ["requests": .array(requests)], headers: ["X-Forwarded-For": "203.0.113.9"])
            let results = reply.json.arrayValue ?? []
            #expect(results.count == 60)
            #expect(results.filter { $0["success"] != nil }.count == 5)
            #expect(results.filter { $0["error"]?["code"] == 430 }.count == 55)
            #expect(try await client.request(.leancloud, .get, "/classes/_File?count=1&limit=0", auth: .master).json["count"] == 5)
        }
    }

    struct Served: Sendable, CustomTestStringConvertible {
        let name: String
        let type: String
        let isInline: Bool
        var testDescription: String { type }
    }

    static let served: [Served] = [
        Served(name: "page.html", type: "text/html", isInline: false), Served(name: "x.svg", type: "image/svg+xml", isInline: false),
        Served(name: "x.xml", type: "application/xml", isInline: false), Served(name: "x.js", type: "application/javascript", isInline: false),
        Served(name: "x.xhtml", type: "application/xhtml+xml", isInline: false), Served(name: "x.bin", type: "application/octet-stream", isInline: false),
        Served(name: "x.html", type: "TEXT/HTML;charset=utf-8", isInline: false),
        Served(name: "x.png", type: "image/png", isInline: true), Served(name: "x.mp4", type: "video/mp4", isInline: true),
        Served(name: "x.mp3", type: "audio/mpeg", isInline: true), Served(name: "x.pdf", type: "application/pdf", isInline: true),
        Served(name: "x.txt", type: "text/plain", isInline: true),
    ]

    @Test("user content is served with nosniff and a sandbox; active types only as attachments, passive ones inline", arguments: served)
    func serving(_ file: Served) async throws {
        try await TestServer.with { client in
            let uploaded = try await client.request(.parse, .post, "/files/\(file.name)", body: "<script>alert(1)</script>", auth: .appKey, headers: ["Content-Type": file.type])
            let reply = try await Self.download(client, uploaded.json["name"]?.stringValue)
            #expect(reply.status == 200)
            #expect(reply.header("Content-Type") == file.type)
            #expect(reply.header("X-Content-Type-Options") == "nosniff")
            if file.type == "application/pdf" {
                #expect(reply.header("Content-Security-Policy") == nil)
            } else {
                #expect(reply.header("Content-Security-Policy")?.contains("sandbox") == true)
                #expect(reply.header("Content-Security-Policy")?.contains("default-src 'none'") == true)
            }
            if file.isInline {
                #expect(reply.header("Content-Disposition") == nil)
            } else {
                #expect(reply.header("Content-Disposition")?.hasPrefix("attachment; filename=\"\(file.name)\"") == true)
            }
        }
    }

    @Test("an attachment's name is quoted safely and given in UTF-8")
    func attachmentName() async throws {
        try await TestServer.with { client in
            let uploaded = try await client.request(.leancloud, .post, "/fileTokens", json: ["name": "页面 \"x\".html"])
            let path = FileUploadTests.local(uploaded.json["upload_url"]?.stringValue)
            #expect(try await Self.put(client, path, "<p>").status == 200)
            let reply = try await Self.download(client, uploaded.json["key"]?.stringValue)
            #expect(reply.header("Content-Disposition") == "attachment; filename=\"__ _x_.html\"; filename*=UTF-8''%E9%A1%B5%E9%9D%A2%20%22x%22.html")
        }
    }

    @Test("a file URL origin of its own: file URLs start with it, upload URLs stay on the API's")
    func separateOrigin() async throws {
        try await TestServer.with(configure: { $0.filePublicURL = "https://files.example-usercontent.com" }) { client in
            let tokens = try await client.request(.leancloud, .post, "/fileTokens", json: ["name": "a.txt"])
            let key = try #require(tokens.json["key"]?.stringValue)
            #expect(tokens.json["url"]?.stringValue == "https://files.example-usercontent.com/files/\(key)")
            #expect(tokens.json["upload_url"]?.stringValue?.hasPrefix("http://127.0.0.1:3000/1.1/fileUploads/") == true)
            let parse = try await client.request(.parse, .post, "/files/b.txt", body: "b")
            #expect(parse.json["url"]?.stringValue?.hasPrefix("https://files.example-usercontent.com/files/") == true)
            let id = try #require(tokens.json["objectId"]?.stringValue)
            #expect(try await client.request(.leancloud, .get, "/files/\(id)").json["url"] == tokens.json["url"])
        }
    }

    struct RangeCase: Sendable, CustomTestStringConvertible {
        let range: String
        let status: Int
        let body: String
        let contentRange: String?
        var testDescription: String { range }
    }

    static let rangeCases: [RangeCase] = [
        RangeCase(range: "bytes=0-9223372036854775807", status: 206, body: "0123456789", contentRange: "bytes 0-9/10"),
        RangeCase(range: "bytes=0-99999999999999999999999", status: 206, body: "0123456789", contentRange: "bytes 0-9/10"),
        RangeCase(range: "bytes=9223372036854775807-", status: 416, body: "", contentRange: "bytes */10"),
        RangeCase(range: "bytes=9223372036854775806-9223372036854775807", status: 416, body: "", contentRange: "bytes */10"),
        RangeCase(range: "bytes=99999999999999999999999-", status: 416, body: "", contentRange: "bytes */10"),
        RangeCase(range: "bytes=-9223372036854775807", status: 206, body: "0123456789", contentRange: "bytes 0-9/10"),
        RangeCase(range: "bytes=-99999999999999999999999", status: 206, body: "0123456789", contentRange: "bytes 0-9/10"),
        RangeCase(range: "bytes=-11", status: 206, body: "0123456789", contentRange: "bytes 0-9/10"),
        RangeCase(range: "bytes=9-9", status: 206, body: "9", contentRange: "bytes 9-9/10"),
        RangeCase(range: "bytes=-1", status: 206, body: "9", contentRange: "bytes 9-9/10"),
        RangeCase(range: "bytes=-0", status: 200, body: "0123456789", contentRange: nil),
        RangeCase(range: "bytes=-5-3", status: 200, body: "0123456789", contentRange: nil),
        RangeCase(range: "bytes=5-3", status: 200, body: "0123456789", contentRange: nil),
        RangeCase(range: "bytes=+1-2", status: 200, body: "0123456789", contentRange: nil),
        RangeCase(range: "bytes=-", status: 200, body: "0123456789", contentRange: nil),
        RangeCase(range: "bytes=--1", status: 200, body: "0123456789", contentRange: nil),
    ]

    @Test("ranges at the edges of Int never overflow: they clamp, or answer 416, or the whole file", arguments: rangeCases)
    func ranges(_ entry: RangeCase) async throws {
        try await TestServer.with { client in
            let uploaded = try await client.request(.parse, .post, "/files/digits.txt", body: "0123456789")
            let reply = try await Self.download(client, uploaded.json["name"]?.stringValue, headers: ["Range": entry.range])
            #expect(reply.status == entry.status, "\(reply.bodyText)")
            #expect(reply.bodyText == entry.body)
            #expect(reply.header("Content-Range") == entry.contentRange)
        }
    }

    @Test("any range of an empty file answers it whole (200, no bytes)", arguments: ["bytes=0-", "bytes=-1", "bytes=0-0", "bytes=9223372036854775807-"])
    func emptyFile(_ range: String) async throws {
        try await TestServer.with { client in
            let uploaded = try await client.request(.parse, .post, "/files/empty.txt", body: "")
            let reply = try await Self.download(client, uploaded.json["name"]?.stringValue, headers: ["Range": range])
            #expect(reply.status == 200)
            #expect(reply.bodyText.isEmpty)
            #expect(reply.header("Content-Length") == "0")
        }
    }
}
