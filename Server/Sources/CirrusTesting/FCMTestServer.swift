import CirrusModel
import CirrusServices
import Crypto
import Foundation
import Hummingbird
import NIOConcurrencyHelpers
import NIOCore
import _CryptoExtras

/// A stand-in for Google's OAuth token endpoint and FCM's HTTP v1 API on `127.0.0.1`, with a service account of its own
/// (``serviceAccountJSON``, whose RSA key it knows the public half of):
/// - `POST /token` exchanges an assertion (an RS256 JWT from the account, for the FCM scope, addressed to this URL, not
///   expired) for an access token; anything else is 400 `invalid_grant`.
/// - `POST /v1/projects/<project>/messages:send` with an access token it issued sends `{"message": {"token", …}}`:
///   200 `{"name"}` (recorded in ``deliveries``), 404 `UNREGISTERED` for ``Behaviour/unregistered``, 400
///   `INVALID_ARGUMENT` for ``Behaviour/invalid`` tokens, 429 for ``Behaviour/throttled`` (the first time), 500 for
///   ``Behaviour/failing``; 401 without a valid access token, 404 for another project.
package final class FCMTestServer: Sendable {
    package struct Behaviour: Sendable {
        package var unregistered: Set<String> = []
        package var invalid: Set<String> = []
        package var throttled: Set<String> = []
        package var failing: Set<String> = []

        package init() {}
    }

    /// `http://127.0.0.1:<port>`.
    package let baseURL: String
    /// The service account's JSON file, pointing its `token_uri` here.
    package let serviceAccountJSON: String
    private let state: NIOLockedValueBox<State>

    struct State {
        var behaviour: Behaviour
        var deliveries: [JSON] = []
        var accessTokens: Set<String> = []
        var exchanges = 0
        var throttledSoFar: Set<String> = []
        /// This server's token URL, once it listens: the audience assertions must name.
        var tokenURL = ""
    }

    private init(baseURL: String, serviceAccountJSON: String, state: NIOLockedValueBox<State>) {
        self.baseURL = baseURL
        self.serviceAccountJSON = serviceAccountJSON
        self.state = state
    }

    /// The `message` objects accepted so far, in order.
    package var deliveries: [JSON] { state.withLockedValue { $0.deliveries } }

    /// What the server answers from now on.
    package var behaviour: Behaviour {
        get { state.withLockedValue { $0.behaviour } }
        set { state.withLockedValue { $0.behaviour = newValue } }
    }

    /// How many access tokens were exchanged.
    package var tokenExchanges: Int { state.withLockedValue { $0.exchanges } }

    static let project = "cirrus-test"
    static let clientEmail = "push@cirrus-test.iam.gserviceaccount.com"

    /// Runs `body` with a server listening on a port of its own, then stops it.
    package static func with<T: Sendable>(behaviour: Behaviour = Behaviour(), _ body: @Sendable (FCMTestServer) async throws -> T) async throws -> T {
        let key = try _RSA.Signing.PrivateKey(keySize: .bits2048)
        let state = NIOLockedValueBox(State(behaviour: behaviour))
        let router = router(publicKey: key.publicKey, state: state)
        return try await TestHTTPServer.run(router: router) { port in
            let baseURL = "http://127.0.0.1:\(port)"
            state.withLockedValue { $0.tokenURL = baseURL + "/token" }
            let account: JSON = [
                "type": "service_account", "project_id": .string(project), "private_key_id": "fcm-key-1",
                "private_key": .string(key.pemRepresentation), "client_email": .string(clientEmail), "token_uri": .string(baseURL + "/token"),
            ]
            return try await body(FCMTestServer(baseURL: baseURL, serviceAccountJSON: JSONWriter.string(account), state: state))
        }
    }

    private static func router(
        publicKey: _RSA.Signing.PublicKey, state: NIOLockedValueBox<State>
    ) -> Router<BasicRequestContext> {
        let router = Router()
        router.post("/token") { request, _ -> Response in
            let form = String(buffer: try await request.body.collect(upTo: 64 << 10))
            let fields = Dictionary(form.split(separator: "&").map { pair -> (String, String) in
                let parts = pair.split(separator: "=", maxSplits: 1).map { String($0).removingPercentEncoding ?? String($0) }
                return (parts[0], parts.count > 1 ? parts[1] : "")
            }, uniquingKeysWith: { first, _ in first })
            guard fields["grant_type"] == "urn:ietf:params:oauth:grant-type:jwt-bearer", let assertion = fields["assertion"],
                Self.verify(assertion, publicKey: publicKey, tokenURL: state.withLockedValue { $0.tokenURL })
            else { return reply(.badRequest, ["error": "invalid_grant"]) }
            let token = "ya29." + UUID().uuidString
            state.withLockedValue {
                $0.accessTokens.insert(token)
                $0.exchanges += 1
            }
            return reply(.ok, ["access_token": .string(token), "expires_in": 3599, "token_type": "Bearer"])
        }
        router.post("/v1/projects/:project/messages:send") { request, context -> Response in
            let bearer = request.headers[.authorization].map { String($0.dropFirst("Bearer ".count)) } ?? ""
            guard state.withLockedValue({ $0.accessTokens.contains(bearer) }) else { return error(401, "UNAUTHENTICATED", nil, "Request had invalid authentication credentials.") }
            guard context.parameters.get("project") == project else { return error(404, "NOT_FOUND", nil, "Requested entity was not found.") }
            let body = try await request.body.collect(upTo: 1 << 20)
            guard case .object(let message)? = (try? JSONParser.parse(Array(body.readableBytesView)))?["message"], let token = message["token"]?.stringValue else {
                return error(400, "INVALID_ARGUMENT", nil, "Request contains an invalid argument.")
            }
            let behaviour = state.withLockedValue { $0.behaviour }
            if behaviour.unregistered.contains(token) { return error(404, "NOT_FOUND", "UNREGISTERED", "Requested entity was not found.") }
            if behaviour.invalid.contains(token) { return error(400, "INVALID_ARGUMENT", "INVALID_ARGUMENT", "The registration token is not a valid FCM registration token") }
            if behaviour.failing.contains(token) { return error(500, "INTERNAL", "INTERNAL", "Internal error encountered.") }
            if behaviour.throttled.contains(token), state.withLockedValue({ $0.throttledSoFar.insert(token).inserted }) {
                return error(429, "RESOURCE_EXHAUSTED", "QUOTA_EXCEEDED", "Quota exceeded.")
            }
            state.withLockedValue { $0.deliveries.append(.object(message)) }
            return reply(.ok, ["name": .string("projects/\(project)/messages/\(UUID().uuidString)")])
        }
        return router
    }

    /// Whether an assertion is the account's: RS256 by its key, for the FCM scope, addressed to the token URL, current.
    static func verify(_ assertion: String, publicKey: _RSA.Signing.PublicKey, tokenURL: String) -> Bool {
        guard let jwt = JSONWebToken(assertion), jwt.header["alg"]?.stringValue == "RS256",
            publicKey.isValidSignature(_RSA.Signing.RSASignature(rawRepresentation: jwt.signature), for: SHA256.hash(data: jwt.signedPart), padding: .insecurePKCS1v1_5),
            jwt.claims["iss"]?.stringValue == clientEmail, jwt.claims["aud"]?.stringValue == tokenURL,
            jwt.claims["scope"]?.stringValue == "https://www.googleapis.com/auth/firebase.messaging",
            let expires = jwt.claims["exp"]?.intValue, Double(expires) > Date().timeIntervalSince1970
        else { return false }
        return true
    }

    private static func reply(_ status: HTTPResponse.Status, _ body: JSON) -> Response {
        Response(status: status, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(bytes: JSONWriter.bytes(body))))
    }

    /// Google's error shape: `{"error": {"code", "message", "status", "details": [{"errorCode"}]}}`.
    private static func error(_ code: Int, _ status: String, _ errorCode: String?, _ message: String) -> Response {
        var error: [String: JSON] = ["code": .int(Int64(code)), "message": .string(message), "status": .string(status)]
        if let errorCode { error["details"] = [["@type": "type.googleapis.com/google.firebase.fcm.v1.FcmError", "errorCode": .string(errorCode)]] }
        return reply(HTTPResponse.Status(code: code), ["error": .object(error)])
    }
}
