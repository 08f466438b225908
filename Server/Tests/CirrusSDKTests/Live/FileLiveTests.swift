import Cirrus
import CirrusTesting
import Foundation
import Testing

/// LCFile against an in-process server over HTTP.
@Suite("Files on a live server")
struct FileLiveTests {
    @Test("an upload reports progress up to 1 and its URL serves the bytes")
    func upload() async throws {
        try await withLiveApp { application, _ in
            let bytes = Data((0..<200_000).map { UInt8(truncatingIfNeeded: $0 &* 31) })
            let file = LCFile(application: application, payload: .data(data: bytes))
            file.name = "avatar.jpg"
            file.metaData["author"] = LCString("LeanCloud")
            let fractions = Fractions()
            try await file.save(progress: { fractions.append($0) })
            #expect(fractions.values.last == 1)
            #expect(fractions.values == fractions.values.sorted())
            #expect(file.objectId != nil)
            #expect(file.mimeType?.value == "image/jpeg")
            #expect(file.metaData["size"]?.intValue == bytes.count)
            #expect(file.metaData["author"]?.stringValue == "LeanCloud")
            let (status, downloaded) = try await LiveTestServer.download(try #require(file.url?.value))
            #expect(status == 200)
            #expect(downloaded == bytes)
        }
    }

    @Test("a file from a local URL is uploaded with its name; a file in a field is read back as an LCFile")
    func fileURL() async throws {
        try await withLiveApp { application, _ in
            let local = FileManager.default.temporaryDirectory.appendingPathComponent("cirrus-\(UUID().uuidString).json")
            try Data(#"{"company":"LeanCloud"}"#.utf8).write(to: local)
            defer { try? FileManager.default.removeItem(at: local) }
            let file = LCFile(application: application, payload: .fileURL(fileURL: local))
            let todo = LCObject(application: application, className: "Todo")
            try todo.set("title", value: "Get Cakes")
            try todo.append("attachments", element: file)
            try await todo.save()
            let read = try await LCQuery(application: application, className: "Todo").get(try #require(todo.objectId?.value))
            let attached = try #require(read.get("attachments")?.arrayValue?.first as? LCFile)
            #expect(attached.objectId == file.objectId)
            #expect(attached.name?.value == local.lastPathComponent)
            let (_, downloaded) = try await LiveTestServer.download(try #require(attached.url?.value))
            #expect(downloaded == Data(#"{"company":"LeanCloud"}"#.utf8))
        }
    }

    @Test("an external URL is recorded without an upload")
    func external() async throws {
        try await withLiveApp { application, _ in
            let url = try #require(URL(string: "https://leancloud.cn/assets/imgs/press/Logo%20-%20Blue%20Padding.a60eb2fa.png"))
            let file = LCFile(application: application, url: url)
            try await file.save()
            let read = try await LCQuery(application: application, className: "_File").get(try #require(file.objectId?.value))
            #expect((read as? LCFile)?.url?.value == url.absoluteString)
        }
    }

    @Test("deleting a file needs the _File delete permission; once granted the file is gone")
    func delete() async throws {
        try await withLiveApp { application, server in
            let file = LCFile(application: application, payload: .data(data: Data("LeanCloud".utf8)))
            try await file.save()
            let refused = try await #require(throws: LCError.self) { try await file.delete() }
            #expect(refused.code == 403)
            let (status, _) = try await server.master("PUT", "/1.1/schemas/_File", body: #"{"classLevelPermissions":{"delete":{"*":true}}}"#)
            #expect(status == 200)
            try await file.delete()
            let (downloadStatus, _) = try await LiveTestServer.download(try #require(file.url?.value))
            #expect(downloadStatus == 404)
        }
    }
}

/// Progress values collected from another thread.
final class Fractions: @unchecked Sendable {
    private let lock = NSLock()
    private var collected: [Double] = []

    func append(_ value: Double) {
        lock.withLock { collected.append(value) }
    }

    var values: [Double] { lock.withLock { collected } }
}
