@testable import CirrusS3
import CirrusStorage
import Foundation
import Testing

@Suite("S3 endpoints and replies")
struct S3EndpointTests {
    static func configuration(_ endpoint: String, _ addressing: S3Configuration.Addressing, prefix: String = "") -> S3Configuration {
        S3Configuration(
            endpoint: URL(string: endpoint)!, region: "us-east-1", bucket: "media", accessKeyID: "id", secretAccessKey: "secret",
            addressing: addressing, keyPrefix: prefix)
    }

    @Test("path-style addressing puts the bucket in the path and keeps a non-default port in the Host header")
    func pathStyle() throws {
        let endpoint = try S3Endpoint(Self.configuration("http://127.0.0.1:9000", .pathStyle, prefix: "cirrus/files/"))
        let request = endpoint.request("GET", key: "a1.txt")
        #expect(request.host == "127.0.0.1:9000")
        #expect(request.url == "http://127.0.0.1:9000/media/cirrus/files/a1.txt")
        #expect(endpoint.request("PUT", key: nil).url == "http://127.0.0.1:9000/media")
    }

    @Test("virtual-host addressing puts the bucket in the host and drops a default port")
    func virtualHost() throws {
        let endpoint = try S3Endpoint(Self.configuration("https://s3.eu-west-1.amazonaws.com:443/", .virtualHost))
        #expect(endpoint.request("GET", key: "a1.txt").url == "https://media.s3.eu-west-1.amazonaws.com/a1.txt")
        #expect(endpoint.request("PUT", key: nil).url == "https://media.s3.eu-west-1.amazonaws.com/")
    }

    @Test("an endpoint path and a prefix with characters to encode end up encoded once in the path")
    func encodedPath() throws {
        let endpoint = try S3Endpoint(Self.configuration("http://storage.local/s3/", .pathStyle, prefix: "my files/"))
        #expect(endpoint.request("GET", key: "a.txt").path == "/s3/media/my%20files/a.txt")
    }

    @Test("an endpoint that is not http or https, or has no host, or an empty bucket is refused")
    func badEndpoints() {
        #expect(throws: FileStorageError.self) { try S3Endpoint(Self.configuration("ftp://example.com", .pathStyle)) }
        #expect(throws: FileStorageError.self) { try S3Endpoint(Self.configuration("file:///tmp", .pathStyle)) }
        var configuration = Self.configuration("http://example.com", .pathStyle)
        configuration.bucket = ""
        #expect(throws: FileStorageError.self) { try S3Endpoint(configuration) }
    }

    @Test("the description of a configuration leaves out the secret key")
    func description() {
        var configuration = Self.configuration("http://example.com", .pathStyle)
        configuration.sessionToken = "session-token"
        #expect(!configuration.description.contains("secret"))
        #expect(!configuration.description.contains("session-token"))
        #expect(configuration.description.contains("bucket: media"))
    }

    @Test("Content-Range headers give the first and last byte and the total size; malformed ones are refused", arguments: [
        ("bytes 7-25/26", [7, 25, 26]), ("bytes 0-0/1", [0, 0, 1]),
        ("bytes 0-9/*", nil), ("bytes 9-3/20", nil), ("bytes 0-20/20", nil), ("items 0-1/2", nil), ("", nil),
    ])
    func contentRange(_ header: String, _ expected: [Int]?) {
        #expect(ContentRange(header).map { [$0.first, $0.last, $0.total] } == expected)
    }

    @Test("an S3 error reply becomes a failure with the status, the code and the decoded message")
    func failure() {
        let body = "<?xml version=\"1.0\"?><Error><Code>SignatureDoesNotMatch</Code><Message>We &amp; you differ</Message></Error>"
        let response = S3Response(status: 403, headers: [:], body: Array(body.utf8))
        #expect(response.failure("GET a1.txt") == .failed("S3 GET a1.txt answered 403 SignatureDoesNotMatch: We & you differ"))
        #expect(!response.isMissingObject)
    }

    @Test("a 404 is a missing object unless the bucket is missing")
    func missing() {
        #expect(S3Response(status: 404, headers: [:], body: Array("<Error><Code>NoSuchKey</Code></Error>".utf8)).isMissingObject)
        #expect(S3Response(status: 404, headers: [:], body: []).isMissingObject)
        #expect(!S3Response(status: 404, headers: [:], body: Array("<Error><Code>NoSuchBucket</Code></Error>".utf8)).isMissingObject)
    }

    @Test("a whole content sent for a range is cut to the range")
    func clamped() {
        let whole: [UInt8] = [0, 1, 2, 3, 4]
        #expect(S3FileStorage.clamped(whole, to: 1..<3) == FileContent(bytes: [1, 2], offset: 1, totalSize: 5))
        #expect(S3FileStorage.clamped(whole, to: 3..<100) == FileContent(bytes: [3, 4], offset: 3, totalSize: 5))
        #expect(S3FileStorage.clamped(whole, to: 9..<100) == FileContent(bytes: [], offset: 5, totalSize: 5))
    }
}
