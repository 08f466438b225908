@testable import Cirrus
import CirrusModel
import Foundation
import Testing

/// The three requests of a file upload.
@Suite("File requests")
struct FileRequestTests {
    @Test("an upload asks fileTokens, PUTs the bytes to upload_url without the app's headers, then calls fileCallback")
    func upload() async throws {
        let tokens = #"""
        {"objectId":"f1","createdAt":"2026-01-01T00:00:00.000Z","token":"tok","upload_url":"https://files.example.com/up/f1?token=tok",
        "provider":"s3","key":"k1","url":"https://api.example.com/files/k1","name":"hello.txt","mime_type":"text/plain",
        "metaData":{"size":9,"owner":"unknown"}}
        """#
        let transport = RecordingTransport(json: [tokens, #"{"objectId":"f1"}"#, "{}"])
        let file = LCFile(application: try makeApplication(transport), payload: .data(data: Data("LeanCloud".utf8)))
        file.name = "hello.txt"
        file.mimeType = "text/plain"
        file.metaData["author"] = LCString("LeanCloud")
        try await file.save(progress: { _ in })
        let requests = transport.requests
        #expect(requests.map(\.method) == ["POST", "PUT", "POST"])
        #expect(requests[0].path == "/1.1/fileTokens")
        let body = requests[0].json
        #expect(body["name"] == "hello.txt")
        #expect(body["mime_type"] == "text/plain")
        #expect(body["metaData"]?["size"] == 9)
        #expect(body["metaData"]?["author"] == "LeanCloud")
        #expect(body["metaData"]?["_checksum"] == .string(MD5.hex("LeanCloud")))
        #expect(requests[1].url.absoluteString == "https://files.example.com/up/f1?token=tok")
        #expect(requests[1].body == Data("LeanCloud".utf8))
        #expect(requests[1].headers["Content-Type"] == "text/plain")
        #expect(requests[1].headers["X-LC-Id"] == nil && requests[1].headers["X-LC-Sign"] == nil)
        #expect(requests[2].path == "/1.1/fileCallback")
        #expect(requests[2].json == ["token": "tok", "result": true])
        #expect(file.objectId?.value == "f1")
        #expect(file.url?.value == "https://api.example.com/files/k1")
        #expect(file.get("token") == nil && file.get("upload_url") == nil)
        #expect(file.payload == nil)
    }

    @Test("a failed PUT reports the failure to fileCallback and fails the save")
    func failedUpload() async throws {
        let transport = RecordingTransport([
            TransportResponse(status: 200, body: Data(#"{"objectId":"f1","token":"tok","upload_url":"https://files.example.com/up"}"#.utf8)),
            TransportResponse(status: 500, body: Data("broken".utf8)),
            TransportResponse(status: 200, body: Data("{}".utf8)),
        ])
        let file = LCFile(application: try makeApplication(transport), payload: .data(data: Data([1, 2, 3])))
        let error = try await #require(throws: LCError.self) { try await file.save() }
        #expect(error.code == 500)
        #expect(transport.requests.last?.json == ["token": "tok", "result": false])
        #expect(file.objectId == nil)
    }

    @Test("a file made from a URL is recorded with POST /1.1/files and nothing is uploaded")
    func external() async throws {
        let transport = RecordingTransport(json: [#"{"objectId":"f2","createdAt":"2026-01-01T00:00:00.000Z"}"#])
        let url = try #require(URL(string: "https://leancloud.cn/assets/imgs/press/Logo%20-%20Blue%20Padding.a60eb2fa.png"))
        let file = LCFile(application: try makeApplication(transport), url: url)
        try await file.save()
        #expect(transport.requests.count == 1)
        #expect(transport.requests[0].path == "/1.1/files")
        #expect(transport.requests[0].json["url"] == .string(url.absoluteString))
        #expect(transport.requests[0].json["name"] == "Logo - Blue Padding.a60eb2fa.png")
        #expect(file.objectId?.value == "f2")
    }

    @Test("a new file in an object's field is uploaded before the object is saved")
    func fileInObject() async throws {
        let transport = RecordingTransport(json: [
            #"{"objectId":"f1","token":"tok","upload_url":"https://files.example.com/up","url":"u"}"#, "{}", "{}",
            #"{"objectId":"t1","createdAt":"2026-01-01T00:00:00.000Z"}"#,
        ])
        let application = try makeApplication(transport)
        let file = LCFile(application: application, payload: .data(data: Data("x".utf8)))
        let todo = LCObject(application: application, className: "Todo")
        try todo.append("attachments", element: file)
        try await todo.save()
        #expect(transport.requests.map(\.path) == ["/1.1/fileTokens", "/up", "/1.1/fileCallback", "/1.1/classes/Todo"])
        #expect(transport.requests[3].json == (try json(#"{"attachments":{"__op":"Add","objects":[{"__type":"File","id":"f1"}]}}"#)))
    }
}
