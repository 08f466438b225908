import CirrusModel
import Crypto
import _CryptoExtras

/// Apple's identity-token signing keys, fetched from its JWKS and kept for a day. A token naming an unknown key id
/// fetches the set again, at most once a minute, so forged key ids cannot make every log-in call Apple.
actor AppleKeySet {
    let url: String
    let call: ProviderCall
    let clock: @Sendable () -> Timestamp
    private var keys: [String: _RSA.Signing.PublicKey] = [:]
    private var fetchedAt: Int64?

    static let lifetime: Int64 = 24 * 3_600_000
    static let refetchInterval: Int64 = 60_000

    init(url: String, call: ProviderCall, clock: @escaping @Sendable () -> Timestamp) {
        self.url = url
        self.call = call
        self.clock = clock
    }

    /// The RSA key with this id, or `nil` when Apple publishes none.
    /// - Throws: ``APIError`` ``APIError/Reason/authProviderUnavailable`` when the keys are needed and cannot be fetched.
    func key(id: String) async throws -> _RSA.Signing.PublicKey? {
        let now = clock().millisecondsSince1970
        let age = fetchedAt.map { now - $0 }
        if let key = keys[id], let age, age < Self.lifetime { return key }
        if let age, age < Self.refetchInterval { return keys[id] }
        fetchedAt = now
        do {
            keys = Self.keys(in: try await call.json(ProviderRequest(url: url)))
        } catch {
            fetchedAt = nil
            throw error
        }
        return keys[id]
    }

    /// The RS256 keys of a JWKS (`{"keys":[{"kty":"RSA","kid","alg","n","e"}]}`); others are left out.
    static func keys(in jwks: JSON) -> [String: _RSA.Signing.PublicKey] {
        var keys: [String: _RSA.Signing.PublicKey] = [:]
        for entry in jwks["keys"]?.arrayValue ?? [] {
            guard entry["kty"] == "RSA", entry["alg"] == nil || entry["alg"] == "RS256", let id = entry["kid"]?.stringValue,
                let n = entry["n"]?.stringValue.flatMap({ JSONWebToken.base64URLDecoded($0[...]) }),
                let e = entry["e"]?.stringValue.flatMap({ JSONWebToken.base64URLDecoded($0[...]) }),
                let key = try? _RSA.Signing.PublicKey(n: n, e: e)
            else { continue }
            keys[id] = key
        }
        return keys
    }
}
