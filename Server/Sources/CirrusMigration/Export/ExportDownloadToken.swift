package import CirrusModel
import CirrusServices

/// The signature of an export's download URL: HMAC-SHA256 of `export/<id>.<expiry ms>` under the key that signs
/// upload URLs (derived from the master key), so only the server can make one, for one export, until it expires.
/// The `/` keeps the signed text apart from an upload token's `<objectId>.<expiry>`.
package enum ExportDownloadToken {
    package static func signature(id: String, expiresAt: Timestamp, key: [UInt8]) -> String {
        UploadToken.signature("export/\(id).\(expiresAt.millisecondsSince1970)", key: key)
    }

    /// Whether `signature` is right for `id` and `expires` and the URL has not expired at `now`.
    package static func isValid(id: String, expires: String, signature: String, key: [UInt8], now: Timestamp) -> Bool {
        guard let milliseconds = Int64(expires), milliseconds > now.millisecondsSince1970 else { return false }
        let expected = Array(Self.signature(id: id, expiresAt: Timestamp(millisecondsSince1970: milliseconds), key: key).utf8)
        return PasswordHasher.constantTimeEqual(expected, Array(signature.utf8))
    }
}
