package import AsyncHTTPClient
package import CirrusServices
import CirrusModel
import Crypto
import Foundation
import NIOCore
import NIOHTTP1
import Synchronization

/// The key APNs authenticates a provider with: a `.p8` key (PKCS #8 PEM, P-256), its key id and the team id.
package struct APNsCredentials: Sendable {
    let key: P256.Signing.PrivateKey
    package let keyId: String
    package let teamId: String

    /// - Throws: ``PushConfigurationError`` when the PEM is not a P-256 private key.
    package init(keyPEM: String, keyId: String, teamId: String) throws {
        do {
            key = try P256.Signing.PrivateKey(pemRepresentation: keyPEM)
        } catch {
            throw PushConfigurationError("the APNs key is not a P-256 private key in PEM (a .p8 file): \(error)")
        }
        self.keyId = keyId
        self.teamId = teamId
    }

    /// A provider token: an ES256 JWT with the key id and `{"iss": <team>, "iat": <now>}`.
    func token(issuedAt: Date) throws -> String {
        let header: JSON = ["alg": "ES256", "kid": .string(keyId)]
        let claims: JSON = ["iss": .string(teamId), "iat": .int(Int64(issuedAt.timeIntervalSince1970))]
        return try JSONWebToken.compact(header: header, claims: claims) { bytes in
            Array(try key.signature(for: SHA256.hash(data: bytes)).rawRepresentation)
        }
    }
}

package struct PushConfigurationError: Error, CustomStringConvertible {
    package let description: String
    init(_ description: String) { self.description = description }
}

/// Sends notifications to APNs over HTTP/2 (async-http-client negotiates it with ALPN) with token authentication: the
/// provider token is made once and used until it is 50 minutes old (Apple refuses one older than an hour, and one
/// renewed more often than every 20 minutes). Each notification is one `POST /3/device/<token>`.
package final class APNsClient: APNsSender {
    let credentials: APNsCredentials
    let productionURL: String
    let sandboxURL: String
    let client: HTTPClient
    let timeout: Duration
    private let cached = ProviderTokenCache(lifetime: 50 * 60)

    /// - Parameters:
    ///   - productionURL, sandboxURL: Apple's hosts unless a proxy (or a test server) stands in.
    ///   - client: an HTTP client whose TLS settings trust the hosts (the system's roots for Apple's).
    package init(
        credentials: APNsCredentials, client: HTTPClient, productionURL: String = "https://api.push.apple.com",
        sandboxURL: String = "https://api.sandbox.push.apple.com", timeout: Duration = .seconds(10)
    ) {
        self.credentials = credentials
        self.client = client
        self.productionURL = productionURL
        self.sandboxURL = sandboxURL
        self.timeout = timeout
    }

    package func send(_ notification: APNsNotification) async -> DeliveryOutcome {
        let outcome = await post(notification, token: currentToken(renew: false))
        // A token APNs calls expired (a clock that jumped): one more try with a new one.
        if case .retry(let reason) = outcome, reason == "ExpiredProviderToken" {
            return await post(notification, token: currentToken(renew: true))
        }
        return outcome
    }

    private func post(_ notification: APNsNotification, token: String?) async -> DeliveryOutcome {
        guard let token else { return .failed("the APNs provider token cannot be signed") }
        let base = notification.sandbox ? sandboxURL : productionURL
        var request = HTTPClientRequest(url: base + "/3/device/" + notification.deviceToken)
        request.method = .POST
        request.headers.add(name: "authorization", value: "bearer " + token)
        request.headers.add(name: "apns-topic", value: notification.topic)
        request.headers.add(name: "apns-push-type", value: notification.pushType)
        request.headers.add(name: "apns-priority", value: String(notification.priority))
        request.headers.add(name: "apns-expiration", value: String(notification.expiration.map { $0.millisecondsSince1970 / 1000 } ?? 0))
        if let collapseId = notification.collapseId { request.headers.add(name: "apns-collapse-id", value: collapseId) }
        request.headers.add(name: "content-type", value: "application/json")
        request.body = .bytes(ByteBuffer(bytes: JSONWriter.bytes(notification.payload)))
        do {
            let response = try await client.execute(request, timeout: TimeAmount(timeout))
            let body = try await response.body.collect(upTo: 64 << 10)
            let reason = (try? JSONParser.parse(Array(body.readableBytesView)))?["reason"]?.stringValue ?? "status \(response.status.code)"
            return Self.outcome(status: Int(response.status.code), reason: reason)
        } catch {
            return .retry("\(error)")
        }
    }

    /// What an APNs status and reason mean for the device and the notification.
    static func outcome(status: Int, reason: String) -> DeliveryOutcome {
        switch (status, reason) {
        case (200, _): .delivered
        case (410, _), (400, "BadDeviceToken"), (400, "DeviceTokenNotForTopic"): .invalidToken(reason)
        case (403, "ExpiredProviderToken"), (429, _), (500...599, _): .retry(reason)
        default: .failed(reason)
        }
    }

    private func currentToken(renew: Bool) -> String? {
        cached.token(renew: renew) { try? credentials.token(issuedAt: $0) }
    }
}

/// A token a push provider's client presents (APNs' provider token, Google's access token) and when it was made,
/// behind a lock: made once, used until it is `lifetime` seconds old.
final class ProviderTokenCache: Sendable {
    private let state = Mutex<(token: String, issuedAt: Date)?>(nil)
    let lifetime: TimeInterval

    init(lifetime: TimeInterval) {
        self.lifetime = lifetime
    }

    /// The token, made anew when there is none, it is `lifetime` old, or `renew`.
    func token(renew: Bool, make: (Date) -> String?) -> String? {
        state.withLock { current in
            let now = Date()
            if !renew, let current, now.timeIntervalSince(current.issuedAt) < lifetime { return current.token }
            guard let token = make(now) else { return nil }
            current = (token, now)
            return token
        }
    }
}
