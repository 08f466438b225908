import CirrusModel
import Crypto
import _CryptoExtras

/// Sign in with Apple (`lc_apple`, as the LeanCloud SDKs name it): the entry's `identity_token` must be an RS256 JWT
/// signed by one of Apple's keys, issued by `https://appleid.apple.com` to one of the app's bundle ids, not expired,
/// whose subject (`sub`) is the entry's `uid`.
struct AppleCheck: AccountCheck {
    let keys: AppleKeySet
    let audiences: [String]
    let clock: @Sendable () -> Timestamp

    static let issuer = "https://appleid.apple.com"
    /// Clock skew allowed on the expiry, in seconds.
    static let leeway: Int64 = 60

    func verify(_ account: LinkedAccount) async throws {
        let text = try required("identity_token", of: account)
        guard let token = JSONWebToken(text) else { throw refused(account, "the identity token is not a JWT") }
        guard token.header["alg"] == "RS256", let keyId = token.header["kid"]?.stringValue else {
            throw refused(account, "the identity token is not signed with RS256")
        }
        guard let key = try await keys.key(id: keyId) else { throw refused(account, "no Apple key has the id '\(keyId)'") }
        let signature = _RSA.Signing.RSASignature(rawRepresentation: token.signature)
        guard key.isValidSignature(signature, for: SHA256.hash(data: token.signedPart), padding: .insecurePKCS1v1_5) else {
            throw refused(account, "the identity token's signature is wrong")
        }
        try check(token.claims, of: account)
    }

    /// Issuer, audience, expiry and subject.
    func check(_ claims: JSON, of account: LinkedAccount) throws(APIError) {
        guard claims["iss"]?.stringValue == Self.issuer else { throw refused(account, "the identity token was not issued by Apple") }
        let audience = claims["aud"]?.stringValue.map { [$0] } ?? claims["aud"]?.arrayValue?.compactMap(\.stringValue) ?? []
        guard audience.contains(where: audiences.contains) else { throw refused(account, "the identity token was issued to another app") }
        guard let expiry = claims["exp"]?.intValue, expiry + Self.leeway > clock().millisecondsSince1970 / 1000 else {
            throw refused(account, "the identity token has expired")
        }
        guard claims["sub"]?.stringValue == account.id else { throw refused(account, "the identity token belongs to another user") }
    }
}
