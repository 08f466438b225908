import CirrusServices
import Crypto
package import Foundation
import Hummingbird
import Logging
import NIOConcurrencyHelpers
import NIOCore
import ServiceLifecycle
import _CryptoExtras

/// Stand-ins for the third-party log-in providers' token checks, served over a real socket on `127.0.0.1`, so that
/// the server's checks run their HTTP calls as against the real ones.
///
/// Known tokens (anything else is refused as the provider refuses it):
/// - WeChat `GET /sns/auth` and `/sns/userinfo`: `wx-good` belongs to openid `wx-1` (unionid `union-1`).
/// - QQ `GET /oauth2.0/me`: `qq-good` is openid `qq-1` (unionid `union-q`) of app `qq-app`; `qq-other-app` is the
///   same openid from app `other`. Without `fmt=json` the reply is JSONP, as QQ's.
/// - Weibo `POST /oauth2/get_token_info`: `wb-good` is uid `1001` of app key `wb-key`; `wb-other-app` the same uid from
///   app `other`; `wb-expired` has no lifetime left.
/// - Apple `GET /auth/keys`: a JWKS with the key `k1`, which ``appleToken(subject:audience:expiresAt:issuer:keyId:)`` signs with.
///
/// Paths below `/hang` never answer (a provider that stalls); below `/fail` answer 500.
package final class AuthProviderTestServer: Sendable {
    /// `http://127.0.0.1:<port>`.
    package let baseURL: String
    private let appleKey: _RSA.Signing.PrivateKey
    private let keyFetches: NIOLockedValueBox<Int>

    private init(baseURL: String, appleKey: _RSA.Signing.PrivateKey, keyFetches: NIOLockedValueBox<Int>) {
        self.baseURL = baseURL
        self.appleKey = appleKey
        self.keyFetches = keyFetches
    }

    /// How many times Apple's key set was fetched.
    package var appleKeyFetches: Int { keyFetches.withLockedValue { $0 } }

    /// Where Apple's keys are published.
    package var appleKeysURL: String { baseURL + "/auth/keys" }

    /// A URL on which nothing listens: a provider that is down.
    package static func closedURL() throws -> String {
        "http://127.0.0.1:\(try FreeLoopbackPort.refusing())"
    }

    /// Runs `body` with a server listening on a port of its own, then stops it.
    package static func with<T: Sendable>(_ body: @Sendable (AuthProviderTestServer) async throws -> T) async throws -> T {
        let appleKey = try _RSA.Signing.PrivateKey(keySize: .bits2048)
        let keyFetches = NIOLockedValueBox(0)
        let router = router(appleKey: appleKey.publicKey, keyFetches: keyFetches)
        return try await TestHTTPServer.run(router: router) { port in
            try await body(AuthProviderTestServer(baseURL: "http://127.0.0.1:\(port)", appleKey: appleKey, keyFetches: keyFetches))
        }
    }

    /// An identity token as Apple signs it (RS256 with the key `keyId` names; `k1` is the published one), or signed by
    /// another key when `forged`.
    package func appleToken(
        subject: String, audience: String, expiresAt: Date = Date().addingTimeInterval(600), issuer: String = "https://appleid.apple.com",
        keyId: String = "k1", forged: Bool = false
    ) throws -> String {
        let header = Self.base64URL(Array(#"{"alg":"RS256","kid":"\#(keyId)"}"#.utf8))
        let claims = #"{"iss":"\#(issuer)","aud":"\#(audience)","exp":\#(Int(expiresAt.timeIntervalSince1970)),"iat":\#(Int(Date().timeIntervalSince1970)),"sub":"\#(subject)"}"#
        let signed = header + "." + Self.base64URL(Array(claims.utf8))
        let key = forged ? try _RSA.Signing.PrivateKey(keySize: .bits2048) : appleKey
        let signature = try key.signature(for: SHA256.hash(data: Array(signed.utf8)), padding: .insecurePKCS1v1_5)
        return signed + "." + Self.base64URL(Array(signature.rawRepresentation))
    }

    static func base64URL(_ bytes: [UInt8]) -> String {
        JSONWebToken.base64URL(bytes)
    }

    private static func router(appleKey: _RSA.Signing.PublicKey, keyFetches: NIOLockedValueBox<Int>) -> Router<BasicRequestContext> {
        let router = Router()
        router.get("sns/auth") { request, _ in
            let query = request.uri.queryParameters
            return query["access_token"] == "wx-good" && query["openid"] == "wx-1"
                ? json(#"{"errcode":0,"errmsg":"ok"}"#) : json(#"{"errcode":40001,"errmsg":"invalid credential"}"#)
        }
        router.get("sns/userinfo") { request, _ in
            request.uri.queryParameters["access_token"] == "wx-good"
                ? json(#"{"openid":"wx-1","nickname":"W","unionid":"union-1"}"#) : json(#"{"errcode":40001,"errmsg":"invalid credential"}"#)
        }
        router.get("oauth2.0/me") { request, _ in
            let query = request.uri.queryParameters
            let app: String? = switch query["access_token"] { case "qq-good": "qq-app"; case "qq-other-app": "other"; default: nil }
            let body = app.map { #"{"client_id":"\#($0)","openid":"qq-1""# + (query["unionid"] == "1" ? #","unionid":"union-q"}"# : "}") }
                ?? #"{"error":100016,"error_description":"access token check failed"}"#
            return json(query["fmt"] == "json" ? body : "callback( \(body) );")
        }
        router.post("oauth2/get_token_info") { request, _ in
            var request = request
            let form = String(buffer: try await request.collectBody(upTo: 4096))
            switch form {
            case "access_token=wb-good": return json(#"{"uid":1001,"appkey":"wb-key","scope":null,"create_at":1352267591,"expire_in":157679471}"#)
            case "access_token=wb-other-app": return json(#"{"uid":1001,"appkey":"other","scope":null,"create_at":1352267591,"expire_in":1000}"#)
            case "access_token=wb-expired": return json(#"{"uid":1001,"appkey":"wb-key","scope":null,"create_at":1352267591,"expire_in":0}"#)
            default: return json(#"{"error":"invalid_access_token","error_code":21332}"#, status: .badRequest)
            }
        }
        router.get("auth/keys") { _, _ in
            keyFetches.withLockedValue { $0 += 1 }
            let primitives = try appleKey.getKeyPrimitives()
            return json(#"{"keys":[{"kty":"RSA","kid":"k1","use":"sig","alg":"RS256","n":"\#(base64URL(Array(primitives.modulus)))","e":"\#(base64URL(Array(primitives.publicExponent)))"}]}"#)
        }
        router.on("hang/**", method: .get) { _, _ -> Response in
            try await Task.sleep(for: .seconds(60))
            return json("{}")
        }
        router.on("hang/**", method: .post) { _, _ -> Response in
            try await Task.sleep(for: .seconds(60))
            return json("{}")
        }
        router.get("fail/**") { _, _ in json("{}", status: .internalServerError) }
        return router
    }

    private static func json(_ text: String, status: HTTPResponse.Status = .ok) -> Response {
        Response(status: status, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(string: text)))
    }
}
