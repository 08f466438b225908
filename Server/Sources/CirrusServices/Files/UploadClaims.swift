import CirrusModel
import Crypto

/// What a client announced of a content in `fileTokens` (`metaData.size`, and `metaData._checksum`, the MD5 in hex,
/// which the LeanCloud Python and Swift SDKs send): the content `PUT` to the upload URL must be that one.
struct UploadClaims {
    var size: Int64?
    var checksum: String?

    init(metaData: JSON?) {
        size = metaData?["size"]?.intValue
        // Only an MD5 is checked: a value of another shape names no algorithm Cirrus knows.
        let given = metaData?["_checksum"]?.stringValue?.lowercased()
        checksum = given.flatMap { $0.count == 32 && $0.allSatisfy(\.isHexDigit) ? $0 : nil }
    }

    /// - Throws: ``APIError`` ``APIError/Reason/invalidParameter`` when the size or checksum differ.
    func check(_ content: [UInt8]) throws(APIError) {
        if let size, size != Int64(content.count) {
            throw APIError(.invalidParameter, "The uploaded content has \(content.count) bytes; fileTokens announced \(size).")
        }
        if let checksum, checksum != Self.md5(content) {
            throw APIError(.invalidParameter, "The uploaded content's MD5 is not the _checksum fileTokens announced.")
        }
    }

    /// The MD5 of a content in lower-case hex, as `_checksum` holds it.
    static func md5(_ content: [UInt8]) -> String {
        Insecure.MD5.hash(data: content).map { byte in (byte < 16 ? "0" : "") + String(byte, radix: 16) }.joined()
    }
}
