import CirrusModel
import Crypto
import _CryptoExtras

/// Apple's identity-token signing keys, fetched from its JWKS and kept for a day. A token naming an unknown key id
/// fetches the set again, at most once a minute (concurrent log-ins wait for the same fetch), so forged key ids cannot
/// make every log-in call Apple.
actor AppleKeySet {
    let url: String
    let call: ProviderCall
    let clock: @Sendable () -> Timestamp
    private var keys: [String: _RSA.Signing.PublicKey] = [:]
    /// When the keys were last fetched, and when a fetch was last tried (and how it failed).
    private var fetchedAt: Int64?
    private var attemptedAt: Int64?
    private var failure: (any Error)?
    private var pending: Task<[String: _RSA.Signing.PublicKey], any Error>?

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
        if let key = keys[id], let fetchedAt, now - fetchedAt < Self.lifetime { return key }
        if let pending { return try await pending.value[id] }
        if let attemptedAt, now - attemptedAt < Self.refetchInterval {
            if let key = keys[id] { return key }
            if let failure { throw failure }
            return nil
        }
        attemptedAt = now
        let (call, url) = (call, url)
        let fetch = Task { Self.keys(in: try await call.json(ProviderRequest(url: url))) }
        pending = fetch
        defer { pending = nil }
        do {
            keys = try await fetch.value
            fetchedAt = now
            failure = nil
        } catch {
            failure = error
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
