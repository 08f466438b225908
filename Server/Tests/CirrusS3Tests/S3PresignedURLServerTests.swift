import AsyncHTTPClient
import CirrusS3
import CirrusStorage
import Foundation
import NIOCore
import NIOHTTP1
import Testing

/// Presigned URLs used with plain HTTP requests, without credentials. moto does not check the signature of a
/// presigned URL (AWS's own example pins that, in ``SignatureV4Tests``), so this suite's server checks none.
@Suite("S3 presigned URLs against moto", .motoServer(checkingSignatures: false))
struct S3PresignedURLServerTests {
    static func storage() throws -> S3FileStorage {
        try S3FileStorage(configuration: MotoServer.running().configuration(keyPrefix: "presigned/"))
    }

    @Test("a presigned GET URL fetched with a plain HTTP GET returns the content")
    func presignedGet() async throws {
        let storage = try Self.storage()
        let content = Array("shared by link".utf8)
        try await storage.write(content, key: "linked.txt", mimeType: "text/plain")
        let url = try storage.presignedURL(method: .get, key: "linked.txt", expiresIn: .seconds(300))
        #expect(url.query?.contains("X-Amz-Expires=300") == true)
        let reply = try await HTTPClient.shared.execute(HTTPClientRequest(url: url.absoluteString), timeout: .seconds(10))
        let body = try await reply.body.collect(upTo: 1 << 20)
        #expect(reply.status.code == 200)
        #expect(Array(buffer: body) == content)
    }

    @Test("a presigned PUT URL stores the body sent to it with a plain HTTP PUT")
    func presignedPut() async throws {
        let storage = try Self.storage()
        let url = try storage.presignedURL(method: .put, key: "uploaded.bin", expiresIn: .seconds(300))
        var request = HTTPClientRequest(url: url.absoluteString)
        request.method = .PUT
        request.body = .bytes([9, 8, 7])
        let reply = try await HTTPClient.shared.execute(request, timeout: .seconds(10))
        _ = try await reply.body.collect(upTo: 1 << 20)
        #expect(reply.status.code == 200)
        #expect(try await storage.read(key: "uploaded.bin", range: nil) == FileContent(bytes: [9, 8, 7], offset: 0, totalSize: 3))
    }
}
