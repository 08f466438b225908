package import AsyncHTTPClient
package import CirrusServices
import CirrusModel
import Crypto
import Foundation
import NIOCore
import NIOHTTP1
import _CryptoExtras

/// A Firebase service account, as the JSON file Google's console gives: the project, the account's e-mail, its RSA
/// private key (and key id), and where tokens are exchanged.
package struct FCMServiceAccount: Sendable {
    package let projectId: String
    package let clientEmail: String
    let keyId: String?
    let key: _RSA.Signing.PrivateKey
    package let tokenURL: String

    /// Reads a service-account JSON file's contents.
    /// - Throws: ``PushConfigurationError`` naming what is missing or wrong.
    package init(json bytes: [UInt8]) throws {
        guard case .object(let members)? = try? JSONParser.parse(bytes) else {
            throw PushConfigurationError("the FCM service account is not a JSON object")
        }
        guard let projectId = members["project_id"]?.stringValue, let clientEmail = members["client_email"]?.stringValue,
            let pem = members["private_key"]?.stringValue
        else { throw PushConfigurationError("the FCM service account lacks project_id, client_email or private_key") }
        do {
            key = try _RSA.Signing.PrivateKey(pemRepresentation: pem)
        } catch {
            throw PushConfigurationError("the FCM service account's private_key is not an RSA key in PEM: \(error)")
        }
        self.projectId = projectId
        self.clientEmail = clientEmail
        self.keyId = members["private_key_id"]?.stringValue
        self.tokenURL = members["token_uri"]?.stringValue ?? "https://oauth2.googleapis.com/token"
    }

    /// The assertion exchanged for an access token: an RS256 JWT for the FCM scope, valid an hour.
    func assertion(issuedAt: Date) throws -> String {
        var header: [String: JSON] = ["alg": "RS256", "typ": "JWT"]
        if let keyId { header["kid"] = .string(keyId) }
        let iat = Int64(issuedAt.timeIntervalSince1970)
        let claims: JSON = [
            "iss": .string(clientEmail), "scope": "https://www.googleapis.com/auth/firebase.messaging", "aud": .string(tokenURL),
            "iat": .int(iat), "exp": .int(iat + 3600),
        ]
        return try JSONWebToken.compact(header: .object(header), claims: claims) { bytes in
            Array(try key.signature(for: SHA256.hash(data: bytes), padding: .insecurePKCS1v1_5).rawRepresentation)
        }
    }
}

/// Sends messages through FCM's HTTP v1 API: an access token from the service account's signed assertion (exchanged
/// at its token URL, kept until five minutes before it expires), then one `POST /v1/projects/<project>/messages:send`
/// per device.
package final class FCMClient: FCMSender {
    let account: FCMServiceAccount
    let client: HTTPClient
    let baseURL: String
    let timeout: Duration
    private let cached = ProviderTokenCache(lifetime: 55 * 60)

    /// - Parameter baseURL: Google's (`https://fcm.googleapis.com`) unless a proxy or a test server stands in.
    package init(account: FCMServiceAccount, client: HTTPClient, baseURL: String = "https://fcm.googleapis.com", timeout: Duration = .seconds(10)) {
        self.account = account
        self.client = client
        self.baseURL = baseURL
        self.timeout = timeout
    }

    package func send(_ notification: FCMNotification) async -> DeliveryOutcome {
        guard let token = await accessToken(renew: false) else { return .retry("no FCM access token") }
        let outcome = await post(notification, token: token)
        if case .retry(let reason) = outcome, reason == "UNAUTHENTICATED", let renewed = await accessToken(renew: true) {
            return await post(notification, token: renewed)
        }
        return outcome
    }

    private func post(_ notification: FCMNotification, token: String) async -> DeliveryOutcome {
        var request = HTTPClientRequest(url: baseURL + "/v1/projects/" + account.projectId + "/messages:send")
        request.method = .POST
        request.headers.add(name: "authorization", value: "Bearer " + token)
        request.headers.add(name: "content-type", value: "application/json")
        request.body = .bytes(ByteBuffer(bytes: JSONWriter.bytes(["message": notification.message])))
        do {
            let response = try await client.execute(request, timeout: TimeAmount(timeout))
            let body = try await response.body.collect(upTo: 64 << 10)
            return Self.outcome(status: Int(response.status.code), body: Array(body.readableBytesView))
        } catch {
            return .retry("\(error)")
        }
    }

    /// What an FCM status and error mean: `UNREGISTERED` (404) and an `INVALID_ARGUMENT` about the token are a dead
    /// token; 429 and 5xx are worth a retry; 401 asks for a new access token.
    static func outcome(status: Int, body: [UInt8]) -> DeliveryOutcome {
        guard status != 200 else { return .delivered }
        let error = (try? JSONParser.parse(body))?["error"]
        let code = error?["details"]?.arrayValue?.compactMap { $0["errorCode"]?.stringValue }.first ?? error?["status"]?.stringValue ?? "status \(status)"
        let message = error?["message"]?.stringValue ?? ""
        switch (status, code) {
        case (404, _), (_, "UNREGISTERED"): return .invalidToken("UNREGISTERED")
        case (400, "INVALID_ARGUMENT") where message.localizedCaseInsensitiveContains("registration token"): return .invalidToken(code)
        case (401, _): return .retry("UNAUTHENTICATED")
        case (429, _), (500...599, _): return .retry(code)
        default: return .failed(code + (message.isEmpty ? "" : ": " + message))
        }
    }

    /// The access token: the cached one, or one exchanged now (`nil` when the exchange fails).
    private func accessToken(renew: Bool) async -> String? {
        if !renew, let token = cached.token(renew: false, make: { _ in nil }) { return token }
        guard let assertion = try? account.assertion(issuedAt: Date()) else { return nil }
        var request = HTTPClientRequest(url: account.tokenURL)
        request.method = .POST
        request.headers.add(name: "content-type", value: "application/x-www-form-urlencoded")
        let form = "grant_type=urn%3Aietf%3Aparams%3Aoauth%3Agrant-type%3Ajwt-bearer&assertion=" + assertion
        request.body = .bytes(ByteBuffer(string: form))
        guard let response = try? await client.execute(request, timeout: TimeAmount(timeout)), response.status == .ok,
            let body = try? await response.body.collect(upTo: 64 << 10),
            let token = (try? JSONParser.parse(Array(body.readableBytesView)))?["access_token"]?.stringValue
        else { return nil }
        return cached.token(renew: true) { _ in token }
    }
}
