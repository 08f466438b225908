@testable import CirrusHTTP
import CirrusModel
import CirrusTesting
import Testing

/// `Range` headers at the edges of `Int` and outside RFC 9110's grammar (found by fuzzing, scripts/fuzz range).
@Suite("Range headers")
struct RangeHeaderTests {
    static let maximum = String(Int.max)

    @Test(
        "a range parses to the bytes it names: digits only, a last position too large for Int reads to the end",
        arguments: [
            ("bytes=0-\(maximum)", 0..<Int.max), ("bytes=0-99999999999999999999", 0..<Int.max), ("bytes=5-\(Int.max - 1)", 5..<Int.max),
            ("bytes=99999999999999999999-", Int.max..<Int.max), ("bytes=2-4", 2..<5),
        ]
    )
    func bounds(_ header: String, _ expected: Range<Int>) throws {
        let range = try #require(ByteRange(header: header))
        #expect(range.readBounds == expected)
    }

    @Test("signs, spaces and empty numbers are not a range", arguments: ["bytes=+1-2", "bytes=1-+2", "bytes=-+3", "bytes=-0", "bytes= 1-2", "bytes=1 -2", "bytes=-", "bytes=--1"])
    func refused(_ header: String) {
        #expect(ByteRange(header: header) == nil)
    }

    @Test("downloads with ranges at the edges of Int answer 206 or 416, and the server goes on answering")
    func downloads() async throws {
        try await TestServer.with { client in
            let reply = try await FileUploadTests.upload(client, name: "digits.txt", content: "0123456789")
            let path = "/files/\(reply["key"]?.stringValue ?? "")"
            let cases: [(String, Int, String)] = [
                ("bytes=0-\(Self.maximum)", 206, "0123456789"), ("bytes=8-99999999999999999999", 206, "89"),
                ("bytes=-\(Self.maximum)", 206, "0123456789"), ("bytes=\(Self.maximum)-", 416, ""),
                ("bytes=\(Self.maximum)-\(Self.maximum)", 416, ""), ("bytes=+1-2", 200, "0123456789"),
            ]
            for (range, status, body) in cases {
                let reply = try await client.send(.leancloud, .get, path, body: nil, auth: .none, headers: ["Range": range])
                #expect(reply.status == status, "\(range)")
                #expect(reply.bodyText == body, "\(range)")
            }
        }
    }
}
