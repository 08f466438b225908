import AsyncHTTPClient
import CirrusS3
import CirrusServer
import CirrusTesting
import Foundation
import NIOCore
import NIOHTTP1
import Testing

/// The server with its file contents in an S3-compatible bucket (moto on loopback): the SDKs' upload paths store in
/// the bucket, downloads and ranges read from it, deletes remove from it.
@Suite("Files stored in S3 through the server", .motoServer())
struct S3UploadThroughServerTests {
    static func local(_ url: String?) -> String {
        guard let url, let slash = url.dropFirst("http://".count).firstIndex(of: "/") else { return "/missing" }
        return String(url[slash...])
    }

    @Test("a LeanCloud upload lands in the bucket, downloads with ranges, and a master delete removes it from the bucket")
    func leanCloudUpload() async throws {
        let storage = try S3FileStorage(configuration: MotoServer.running().configuration(keyPrefix: "server/\(UUID().uuidString)/"))
        try await TestServer.with(configure: { $0.fileStorage = storage }) { client in
            let tokens = try await client.send(.leancloud, .post, "/1.1/fileTokens", json: ["name": "report.txt", "mime_type": .null, "metaData": [:]])
            let key = try #require(tokens.json["key"]?.stringValue)
            let put = try await client.send(.leancloud, .put, Self.local(tokens.json["upload_url"]?.stringValue), body: "quarterly numbers", auth: .none)
            #expect(put.status == 200)
            #expect(try await storage.read(key: key, range: nil)?.bytes == Array("quarterly numbers".utf8))
            let part = try await client.send(.leancloud, .get, "/files/\(key)", body: nil, auth: .none, headers: ["Range": "bytes=10-16"])
            #expect(part.status == 206)
            #expect(part.bodyText == "numbers")
            #expect(part.header("Content-Type") == "text/plain")
            let parse = try await client.send(.parse, .post, "/parse/files/data.json", body: "{\"a\":1}", headers: ["Content-Type": "application/json"])
            #expect(try await client.send(.parse, .get, Self.local(parse.json["url"]?.stringValue), body: nil, auth: .none).bodyText == "{\"a\":1}")
            let id = try #require(tokens.json["objectId"]?.stringValue)
            #expect(try await client.send(.leancloud, .delete, "/1.1/files/\(id)", auth: .master).status == 200)
            #expect(try await storage.read(key: key, range: nil) == nil)
        }
    }
}

/// moto cannot check the signature of a presigned URL (see ``S3PresignedURLServerTests``), so this suite's server
/// checks none.
@Suite("Downloads redirected to presigned URLs", .motoServer(checkingSignatures: false))
struct S3DownloadRedirectTests {
    @Test("with a redirect lifetime, /files/<key> answers 302 to a presigned URL the bucket serves; unknown keys stay 404")
    func redirects() async throws {
        var configuration = try MotoServer.running().configuration(keyPrefix: "redirect/\(UUID().uuidString)/")
        configuration.downloadRedirectLifetime = .seconds(600)
        let storage = try S3FileStorage(configuration: configuration)
        try await TestServer.with(configure: { $0.fileStorage = storage }) { client in
            let parse = try await client.send(.parse, .post, "/parse/files/song.txt", body: "la la la", headers: ["Content-Type": "text/plain"])
            let path = S3UploadThroughServerTests.local(parse.json["url"]?.stringValue)
            let redirect = try await client.send(.parse, .get, path, body: nil, auth: .none)
            #expect(redirect.status == 302)
            let location = try #require(redirect.header("Location").flatMap(URL.init(string:)))
            #expect(location.query?.contains("X-Amz-Signature=") == true)
            #expect(location.query?.contains("X-Amz-Expires=600") == true)
            let reply = try await HTTPClient.shared.execute(HTTPClientRequest(url: location.absoluteString), timeout: .seconds(10))
            #expect(reply.status.code == 200)
            #expect(String(buffer: try await reply.body.collect(upTo: 1024)) == "la la la")
            #expect(try await client.send(.parse, .get, "/files/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA.txt", body: nil, auth: .none).status == 404)
        }
    }
}
