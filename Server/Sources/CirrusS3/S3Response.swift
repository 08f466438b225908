import CirrusStorage
import Foundation

/// A reply of an S3-compatible service, its body read whole.
struct S3Response: Sendable, Hashable {
    var status: Int
    /// Header names in lower case.
    var headers: [String: String]
    var body: [UInt8]

    var isSuccess: Bool { (200..<300).contains(status) }

    /// The S3 error code of the XML body (`NoSuchKey`, `SignatureDoesNotMatch`), if there is one.
    var errorCode: String? { xmlElement("Code") }

    /// A 404 for a missing object, not for a missing bucket: an error body without `NoSuchBucket`, or no body (HEAD).
    var isMissingObject: Bool { status == 404 && errorCode != "NoSuchBucket" }

    /// The `Content-Length` header as a number.
    var contentLength: Int? { headers["content-length"].flatMap { Int($0) } }

    /// The failure to report for this reply to `operation` (`GET files/a1.txt`): status, S3 code and message.
    func failure(_ operation: String) -> FileStorageError {
        let reason = [errorCode, xmlElement("Message")].compactMap { $0 }.joined(separator: ": ")
        let detail = reason.isEmpty ? String(decoding: body.prefix(200), as: UTF8.self) : reason
        return .failed("S3 \(operation) answered \(status)" + (detail.isEmpty ? "" : " \(detail)"))
    }

    /// The text of the first `<name>…</name>` in the body, with XML's five entities decoded.
    func xmlElement(_ name: String) -> String? {
        let text = String(decoding: body, as: UTF8.self)
        guard let start = text.range(of: "<\(name)>"), let end = text.range(of: "</\(name)>", range: start.upperBound..<text.endIndex) else {
            return nil
        }
        return Self.decodingEntities(String(text[start.upperBound..<end.lowerBound]))
    }

    private static func decodingEntities(_ text: String) -> String {
        [("&lt;", "<"), ("&gt;", ">"), ("&quot;", "\""), ("&apos;", "'"), ("&amp;", "&")].reduce(text) {
            $0.replacing($1.0, with: $1.1)
        }
    }
}
