package import CirrusModel
import Foundation

/// A compact JWS (`header.payload.signature`, each base64url): read but not yet verified (an identity token from a
/// provider), or written and signed (the tokens Cirrus presents to APNs and Google).
package struct JSONWebToken: Sendable {
    package let header: JSON
    package let claims: JSON
    /// The bytes the signature covers: `header.payload` as sent.
    package let signedPart: [UInt8]
    package let signature: [UInt8]

    /// - Returns: `nil` for anything but three base64url parts whose first two are JSON objects.
    package init?(_ text: String) {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let header = Self.object(parts[0]), let claims = Self.object(parts[1]),
            let signature = Self.base64URLDecoded(parts[2])
        else { return nil }
        self.header = header
        self.claims = claims
        self.signedPart = Array(text.utf8.prefix(parts[0].utf8.count + 1 + parts[1].utf8.count))
        self.signature = signature
    }

    private static func object(_ part: Substring) -> JSON? {
        guard let bytes = base64URLDecoded(part), case .object(let members)? = try? JSONParser.parse(bytes) else { return nil }
        return .object(members)
    }

    /// The compact form of a token with `header` and `claims`, signed by `sign` (which gets the bytes of
    /// `header.payload` and answers the signature: ES256's raw `r‖s`, RS256's PKCS #1 v1.5 signature).
    package static func compact(header: JSON, claims: JSON, sign: ([UInt8]) throws -> [UInt8]) rethrows -> String {
        let signed = base64URL(JSONWriter.bytes(header)) + "." + base64URL(JSONWriter.bytes(claims))
        return signed + "." + base64URL(try sign(Array(signed.utf8)))
    }

    /// Base64url without padding (RFC 7515 §2).
    package static func base64URL(_ bytes: [UInt8]) -> String {
        Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    /// Base64url without padding (RFC 7515 §2), read.
    package static func base64URLDecoded(_ text: Substring) -> [UInt8]? {
        guard text.utf8.allSatisfy({ $0 != UInt8(ascii: "+") && $0 != UInt8(ascii: "/") && $0 != UInt8(ascii: "=") }) else { return nil }
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        return Data(base64Encoded: base64).map(Array.init)
    }
}
