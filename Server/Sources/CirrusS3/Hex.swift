import Crypto

/// Lower-case hexadecimal text of bytes, and the SHA-256 and HMAC-SHA256 values SigV4 is built from.
enum Hex {
    private static let digits = Array("0123456789abcdef".utf8)

    /// `bytes` as lower-case hex, two digits a byte.
    static func string(_ bytes: some Sequence<UInt8>) -> String {
        var text: [UInt8] = []
        for byte in bytes {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// The SHA-256 hash of `bytes` as lower-case hex.
    static func sha256(_ bytes: some Sequence<UInt8>) -> String {
        var hasher = SHA256()
        hasher.update(data: Array(bytes))
        return string(hasher.finalize())
    }

    /// HMAC-SHA256 of `message` under `key`.
    static func hmac(key: [UInt8], _ message: String) -> [UInt8] {
        Array(HMAC<SHA256>.authenticationCode(for: Array(message.utf8), using: SymmetricKey(data: key)))
    }
}
