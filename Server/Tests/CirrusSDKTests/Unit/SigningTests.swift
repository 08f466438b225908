@testable import Cirrus
import Foundation
import Testing

/// MD5 and the `X-LC-Sign` header.
@Suite("Request signing")
struct SigningTests {
    @Test("MD5 matches the RFC 1321 test vectors", arguments: [
        ("", "d41d8cd98f00b204e9800998ecf8427e"),
        ("a", "0cc175b9c0f1b6a831c399e269772661"),
        ("abc", "900150983cd24fb0d6963f7d28e17f72"),
        ("message digest", "f96b697d7cb7938d525a2f31aaf161d0"),
        ("12345678901234567890123456789012345678901234567890123456789012345678901234567890", "57edf4a22be3c955ac49da2e2107b67a"),
    ])
    func md5(input: String, digest: String) {
        #expect(MD5.hex(input) == digest)
    }

    @Test("the signature of a recorded request is md5(timestamp + key),timestamp")
    func recordedSignature() throws {
        // Recording #21 (Geopoints near): X-LC-Sign 840ca278e6c8785a6e67add50e9b65da,1568868348394 with the
        // recordings' fake app key.
        let settings = LCApplication.Settings(
            id: "95TNUaOSUd8IpKNW0RSqSEOm-9Nh9j0Va", key: "fakeAppKeyForRecordings0", serverURL: URL(string: "https://x")!,
            configuration: .init(currentUserStorage: .none)
        )
        let headers = RESTClient.authHeaders(settings, now: Date(timeIntervalSince1970: 1_568_868_348.394))
        #expect(headers["X-LC-Sign"] == "840ca278e6c8785a6e67add50e9b65da,1568868348394")
        #expect(headers["X-LC-Id"] == "95TNUaOSUd8IpKNW0RSqSEOm-9Nh9j0Va")
        #expect(headers["X-LC-Key"] == nil)
    }

    @Test("with signing turned off the key is sent as X-LC-Key")
    func plainKey() {
        let settings = LCApplication.Settings(
            id: "id", key: "key", serverURL: URL(string: "https://x")!, configuration: .init(currentUserStorage: .none, signsRequests: false)
        )
        let headers = RESTClient.authHeaders(settings, now: Date())
        #expect(headers["X-LC-Key"] == "key")
        #expect(headers["X-LC-Sign"] == nil)
    }
}
