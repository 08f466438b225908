import CirrusModel
import Crypto
import Foundation

/// Seals a small JSON object with an HMAC-SHA256 under a key derived from the master key and a purpose, so that a
/// client may hold it but not forge or alter it, and any server instance of the app can open it:
/// `<payload>.<mac>`, both base64url without padding. Each purpose has its own key: a value sealed for one is never
/// accepted for another.
struct JSONSeal: Sendable {
    private let key: SymmetricKey

    init(masterKey: String, purpose: String) {
        key = SymmetricKey(data: SHA256.hash(data: Array("\(purpose)\u{0}\(masterKey)".utf8)))
    }

    func seal(_ payload: [String: JSON]) -> String {
        let bytes = JSONWriter.bytes(.object(payload))
        return Self.base64URL(Data(bytes)) + "." + mac(bytes)
    }

    /// The members sealed in `text`; `nil` for anything altered, forged or malformed.
    func open(_ text: String) -> [String: JSON]? {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 2, let payload = Self.data(base64URL: parts[0]), let mac = Self.data(base64URL: parts[1]),
            HMAC<SHA256>.isValidAuthenticationCode(mac, authenticating: payload, using: key),
            case .object(let members)? = try? JSONParser.parse(Array(payload))
        else { return nil }
        return members
    }

    /// The base64url MAC of `bytes` under this seal's key.
    func mac(_ bytes: [UInt8]) -> String {
        Self.base64URL(Data(HMAC<SHA256>.authenticationCode(for: bytes, using: key)))
    }

    /// Whether `text` is the MAC of `bytes`, compared in constant time.
    func isMAC(_ text: String, of bytes: [UInt8]) -> Bool {
        guard let mac = Self.data(base64URL: Substring(text)) else { return false }
        return HMAC<SHA256>.isValidAuthenticationCode(mac, authenticating: bytes, using: key)
    }

    static func base64URL(_ data: Data) -> String {
        var text = data.base64EncodedString()
        text = text.replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
        while text.hasSuffix("=") { text.removeLast() }
        return text
    }

    static func data(base64URL text: Substring) -> Data? {
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while base64.count % 4 != 0 { base64 += "=" }
        return Data(base64Encoded: base64)
    }
}
