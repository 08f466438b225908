@testable import CirrusS3
import CirrusStorage
import Foundation
import Testing

@Suite("S3 presigned URLs")
struct S3PresignedURLTests {
    static let storage = try! S3FileStorage(
        configuration: S3Configuration(
            endpoint: URL(string: "https://s3.amazonaws.com")!, region: "us-east-1", bucket: "examplebucket",
            accessKeyID: "AKIAIOSFODNN7EXAMPLE", secretAccessKey: "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY", addressing: .virtualHost))

    @Test("the storage presigns AWS's documented GET example to the documented URL")
    func documentedExample() throws {
        let url = try Self.storage.presignedURL(method: .get, key: "test.txt", expiresIn: .seconds(86_400), at: SignatureV4Tests.exampleDate)
        #expect(url.absoluteString == "https://examplebucket.s3.amazonaws.com/test.txt?X-Amz-Algorithm=AWS4-HMAC-SHA256"
            + "&X-Amz-Credential=AKIAIOSFODNN7EXAMPLE%2F20130524%2Fus-east-1%2Fs3%2Faws4_request&X-Amz-Date=20130524T000000Z"
            + "&X-Amz-Expires=86400&X-Amz-SignedHeaders=host&X-Amz-Signature=aeeed9bbccd4d02ee5c0109b86d86835f995330da4c265957d157751f604d404")
    }

    @Test("a PUT URL is signed for PUT, so it differs from the GET URL of the same key and time")
    func putDiffersFromGet() throws {
        let get = try Self.storage.presignedURL(method: .get, key: "a1.txt", expiresIn: .seconds(60), at: SignatureV4Tests.exampleDate)
        let put = try Self.storage.presignedURL(method: .put, key: "a1.txt", expiresIn: .seconds(60), at: SignatureV4Tests.exampleDate)
        #expect(get != put)
        #expect(get.absoluteString.prefix(while: { $0 != "?" }) == put.absoluteString.prefix(while: { $0 != "?" }))
    }

    @Test("invalid keys are refused with invalidKey", arguments: ["../escape", "a/b", "", ".."])
    func invalidKeys(_ key: String) {
        #expect(throws: FileStorageError.invalidKey(key)) { try Self.storage.presignedURL(method: .get, key: key, expiresIn: .seconds(60)) }
    }

    @Test("expiries under one second or over seven days are refused", arguments: [Duration.zero, .milliseconds(500), .seconds(604_801)])
    func expiries(_ expiry: Duration) {
        #expect(throws: FileStorageError.self) { try Self.storage.presignedURL(method: .get, key: "a1.txt", expiresIn: expiry) }
    }
}
