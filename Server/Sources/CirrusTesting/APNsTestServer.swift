import CirrusModel
import CirrusServices
import Crypto
import Foundation
import Hummingbird
import HummingbirdHTTP2
import HummingbirdTLS
import NIOConcurrencyHelpers
import NIOCore
import NIOSSL

/// A stand-in for APNs on `127.0.0.1`: HTTP/2 only, over TLS (``TestCertificate``; ALPN offers `h2` alone, so an
/// HTTP/1.1 client cannot talk to it), checking what APNs checks of each `POST /3/device/<token>`: a provider token
/// (an ES256 JWT whose key id and team it knows, verified with the key's public half, at most an hour old), the
/// `apns-topic`, `apns-push-type`, `apns-priority` and `apns-expiration` headers, and a JSON payload of at most 4 KB
/// with an `aps` object. It answers as APNs does:
/// - 200 with an `apns-id` for a good request (recorded in ``deliveries``);
/// - 400 `BadDeviceToken` for a token that is not 64 hex digits or is in ``Behaviour/badTokens``;
/// - 410 `Unregistered` for a token in ``Behaviour/unregistered``;
/// - 429 `TooManyRequests` the first ``Behaviour/throttleFirst`` times a token in ``Behaviour/throttled`` is sent to;
/// - 500 `InternalServerError` for a token in ``Behaviour/failing``;
/// - 403 `InvalidProviderToken` or `ExpiredProviderToken`, 400 `MissingTopic`, `BadTopic`, `InvalidPushType`,
///   `BadPriority`, `BadExpirationDate`, `PayloadEmpty` or `BadPayload`, 413 `PayloadTooLarge` for a bad request.
package final class APNsTestServer: Sendable {
    /// What the server answers for which tokens.
    package struct Behaviour: Sendable {
        package var badTokens: Set<String> = []
        package var unregistered: Set<String> = []
        package var throttled: Set<String> = []
        package var throttleFirst = 1
        package var failing: Set<String> = []
        /// The topic (bundle id) the key may send to.
        package var topic = "com.example.app"
        /// Whether accepted notifications are kept in ``deliveries`` (else only counted, for a benchmark's many).
        package var keepsDeliveries = true

        package init() {}
    }

    /// A notification the server accepted.
    package struct Delivery: Sendable, Equatable {
        package var token: String
        package var headers: [String: String]
        package var payload: JSON
    }

    /// `https://127.0.0.1:<port>`.
    package let baseURL: String
    /// The provider key's identity and private half, for the client under test.
    package let keyId: String
    package let teamId: String
    package let keyPEM: String
    private let state: NIOLockedValueBox<State>

    struct State {
        var behaviour: Behaviour
        var deliveries: [Delivery] = []
        var accepted = 0
        var refusals: [String] = []
        var throttledSoFar: [String: Int] = [:]
    }

    private init(baseURL: String, keyId: String, teamId: String, keyPEM: String, state: NIOLockedValueBox<State>) {
        self.baseURL = baseURL
        self.keyId = keyId
        self.teamId = teamId
        self.keyPEM = keyPEM
        self.state = state
    }

    /// The notifications accepted so far, in order.
    package var deliveries: [Delivery] { state.withLockedValue { $0.deliveries } }

    /// How many notifications were accepted, kept or not.
    package var accepted: Int { state.withLockedValue { $0.accepted } }

    /// What the server answers from now on.
    package var behaviour: Behaviour {
        get { state.withLockedValue { $0.behaviour } }
        set { state.withLockedValue { $0.behaviour = newValue } }
    }

    /// The reasons of the requests refused so far, in order.
    package var refusals: [String] { state.withLockedValue { $0.refusals } }

    /// Runs `body` with a server listening on a port of its own, then stops it.
    package static func with<T: Sendable>(
        behaviour: Behaviour = Behaviour(), _ body: @Sendable (APNsTestServer) async throws -> T
    ) async throws -> T {
        let key = P256.Signing.PrivateKey()
        let (keyId, teamId) = ("KEY1234567", "TEAM123456")
        let state = NIOLockedValueBox(State(behaviour: behaviour))
        let router = Self.router(publicKey: key.publicKey, keyId: keyId, teamId: teamId, state: state)
        var tls = TLSConfiguration.makeServerConfiguration(
            certificateChain: try NIOSSLCertificate.fromPEMBytes(Array(TestCertificate.certificatePEM.utf8)).map { .certificate($0) },
            privateKey: .privateKey(try NIOSSLPrivateKey(bytes: Array(TestCertificate.privateKeyPEM.utf8), format: .pem))
        )
        tls.applicationProtocols = ["h2"]
        return try await TestHTTPServer.run(router: router, server: .tls(.plaintextHTTP2(), tlsConfiguration: tls)) { port in
            try await body(APNsTestServer(baseURL: "https://127.0.0.1:\(port)", keyId: keyId, teamId: teamId, keyPEM: key.pemRepresentation, state: state))
        }
    }

    private static func router(
        publicKey: P256.Signing.PublicKey, keyId: String, teamId: String, state: NIOLockedValueBox<State>
    ) -> Router<BasicRequestContext> {
        let router = Router()
        router.post("/3/device/:token") { request, context -> Response in
            let token = context.parameters.get("token") ?? ""
            let body = try await request.body.collect(upTo: 1 << 20)
            let headers = Dictionary(request.headers.map { ($0.name.canonicalName, $0.value) }, uniquingKeysWith: { first, _ in first })
            let behaviour = state.withLockedValue { $0.behaviour }
            let check = Check(publicKey: publicKey, keyId: keyId, teamId: teamId, topic: behaviour.topic)
            if let (status, reason) = check.refusal(token: token, headers: headers, body: Array(body.readableBytesView), behaviour: behaviour, state: state) {
                state.withLockedValue { $0.refusals.append(reason) }
                return Self.reply(status, ["reason": .string(reason)])
            }
            let payload = (try? JSONParser.parse(Array(body.readableBytesView))) ?? .null
            state.withLockedValue { state in
                state.accepted += 1
                if state.behaviour.keepsDeliveries { state.deliveries.append(Delivery(token: token, headers: headers, payload: payload)) }
            }
            var response = Self.reply(.ok, nil)
            response.headers[HTTPField.Name("apns-id")!] = UUID().uuidString
            return response
        }
        return router
    }

    private static func reply(_ status: HTTPResponse.Status, _ body: JSON?) -> Response {
        let bytes = body.map(JSONWriter.bytes) ?? []
        return Response(status: status, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(bytes: bytes)))
    }

    /// APNs' checks of one request, in the order it makes them.
    struct Check {
        let publicKey: P256.Signing.PublicKey
        let keyId: String
        let teamId: String
        let topic: String

        func refusal(token: String, headers: [String: String], body: [UInt8], behaviour: Behaviour, state: NIOLockedValueBox<State>) -> (HTTPResponse.Status, String)? {
            if let problem = tokenProblem(headers["authorization"]) { return (.forbidden, problem) }
            guard let sentTopic = headers["apns-topic"] else { return (.badRequest, "MissingTopic") }
            guard sentTopic == topic else { return (.badRequest, "BadTopic") }
            guard let type = headers["apns-push-type"], ["alert", "background", "voip", "complication", "fileprovider", "mdm", "liveactivity"].contains(type) else {
                return (.badRequest, "InvalidPushType")
            }
            if let priority = headers["apns-priority"], !["1", "5", "10"].contains(priority) { return (.badRequest, "BadPriority") }
            if let expiration = headers["apns-expiration"], Int64(expiration) == nil { return (.badRequest, "BadExpirationDate") }
            guard token.utf8.count == 64, token.utf8.allSatisfy({ (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }),
                !behaviour.badTokens.contains(token)
            else { return (.badRequest, "BadDeviceToken") }
            guard !body.isEmpty else { return (.badRequest, "PayloadEmpty") }
            guard body.count <= 4096 else { return (.contentTooLarge, "PayloadTooLarge") }
            guard case .object(let members)? = try? JSONParser.parse(body), case .object? = members["aps"] else { return (.badRequest, "BadPayload") }
            if behaviour.unregistered.contains(token) { return (.gone, "Unregistered") }
            if behaviour.failing.contains(token) { return (.internalServerError, "InternalServerError") }
            if behaviour.throttled.contains(token) {
                let sent = state.withLockedValue { state -> Int in
                    state.throttledSoFar[token, default: 0] += 1
                    return state.throttledSoFar[token]!
                }
                if sent <= behaviour.throttleFirst { return (.tooManyRequests, "TooManyRequests") }
            }
            return nil
        }

        /// Why the provider token is refused, or `nil` for a good one.
        func tokenProblem(_ authorization: String?) -> String? {
            guard let authorization, authorization.hasPrefix("bearer "), let jwt = JSONWebToken(String(authorization.dropFirst(7))) else {
                return "MissingProviderToken"
            }
            guard jwt.header["alg"]?.stringValue == "ES256", jwt.header["kid"]?.stringValue == keyId, jwt.claims["iss"]?.stringValue == teamId,
                let signature = try? P256.Signing.ECDSASignature(rawRepresentation: jwt.signature),
                publicKey.isValidSignature(signature, for: SHA256.hash(data: jwt.signedPart))
            else { return "InvalidProviderToken" }
            guard let issued = jwt.claims["iat"]?.intValue, abs(Date().timeIntervalSince1970 - Double(issued)) < 3600 else { return "ExpiredProviderToken" }
            return nil
        }
    }
}
