import CirrusModel
import Crypto
import Foundation

/// The authorisation an upload URL carries, since the SDK's `PUT` has no other: the file's objectId and an expiry,
/// signed with HMAC-SHA256 under a key derived from the master key. `<objectId>.<expiry ms>.<signature base64url>`.
package struct UploadToken {
    let fileId: String
    let expiresAt: Timestamp

    func encoded(key: [UInt8]) -> String {
        let payload = "\(fileId).\(expiresAt.millisecondsSince1970)"
        return payload + "." + Self.signature(payload, key: key)
    }

    /// The token in `text` if its signature is right and it names `fileId`; expiry is checked by the caller.
    static func decode(_ text: String, key: [UInt8]) -> UploadToken? {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 3, let expiry = Int64(parts[1]) else { return nil }
        let expected = Array(signature(parts[0] + "." + parts[1], key: key).utf8)
        guard PasswordHasher.constantTimeEqual(expected, Array(parts[2].utf8)) else { return nil }
        return UploadToken(fileId: parts[0], expiresAt: Timestamp(millisecondsSince1970: expiry))
    }

    package static func signature(_ payload: String, key: [UInt8]) -> String {
        let mac = HMAC<SHA256>.authenticationCode(for: Array(payload.utf8), using: SymmetricKey(data: key))
        return Data(mac).base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    /// The signing key of upload tokens, derived from the master key so that no other secret has to be kept.
    static func signingKey(masterKey: String) -> [UInt8] {
        Array(HMAC<SHA256>.authenticationCode(for: Array("cirrus file uploads".utf8), using: SymmetricKey(data: Array(masterKey.utf8))))
    }
}
