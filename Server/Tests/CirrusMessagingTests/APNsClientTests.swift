import AsyncHTTPClient
import CirrusMessaging
import CirrusModel
import CirrusServices
import CirrusTesting
import NIOSSL
import Testing

@Suite("The APNs client against an HTTP/2 TLS stand-in that checks what APNs checks")
struct APNsClientTests {
    static let good = String(repeating: "ab", count: 32)
    static let bad = String(repeating: "cd", count: 32)
    static let gone = String(repeating: "ef", count: 32)
    static let busy = String(repeating: "12", count: 32)
    static let broken = String(repeating: "34", count: 32)

    /// An HTTP client that trusts the test certificate only (`http1Only` to show the stand-in refuses HTTP/1.1).
    static func client(http1Only: Bool = false) throws -> HTTPClient {
        var tls = TLSConfiguration.makeClientConfiguration()
        tls.trustRoots = .certificates(try NIOSSLCertificate.fromPEMBytes(Array(TestCertificate.certificatePEM.utf8)))
        var configuration = HTTPClient.Configuration(tlsConfiguration: tls)
        if http1Only { configuration.httpVersion = .http1Only }
        return HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
    }

    static func apns(_ server: APNsTestServer, client: HTTPClient) throws -> APNsClient {
        let credentials = try APNsCredentials(keyPEM: server.keyPEM, keyId: server.keyId, teamId: server.teamId)
        return APNsClient(credentials: credentials, client: client, productionURL: server.baseURL, sandboxURL: server.baseURL)
    }

    static func notification(_ token: String, topic: String = "com.example.app") -> APNsNotification {
        APNSPayloadFixture.alert(token: token, topic: topic)
    }

    @Test("each answer APNs gives means what it should for the device", arguments: [
        (good, DeliveryOutcome.delivered), (bad, .invalidToken("BadDeviceToken")), (gone, .invalidToken("Unregistered")),
        (busy, .retry("TooManyRequests")), (broken, .retry("InternalServerError")), ("not-hex", .invalidToken("BadDeviceToken")),
    ])
    func outcomes(token: String, expected: DeliveryOutcome) async throws {
        var behaviour = APNsTestServer.Behaviour()
        behaviour.badTokens = [Self.bad]
        behaviour.unregistered = [Self.gone]
        behaviour.throttled = [Self.busy]
        behaviour.failing = [Self.broken]
        try await APNsTestServer.with(behaviour: behaviour) { server in
            let client = try Self.client()
            let apns = try Self.apns(server, client: client)
            #expect(await apns.send(Self.notification(token)) == expected)
            try await client.shutdown()
        }
    }

    @Test("a delivered notification carries the headers and payload APNs reads, over HTTP/2, with one provider token for many")
    func delivered() async throws {
        try await APNsTestServer.with { server in
            let client = try Self.client()
            let apns = try Self.apns(server, client: client)
            var notification = Self.notification(Self.good)
            notification.collapseId = "score"
            notification.expiration = Timestamp(millisecondsSince1970: 4_102_444_800_000)
            for _ in 0..<3 { #expect(await apns.send(notification) == .delivered) }
            let deliveries = server.deliveries
            #expect(deliveries.count == 3)
            #expect(Set(deliveries.map { $0.headers["authorization"] }).count == 1)
            let headers = deliveries[0].headers
            #expect(headers["apns-topic"] == "com.example.app" && headers["apns-push-type"] == "alert" && headers["apns-priority"] == "10")
            #expect(headers["apns-expiration"] == "4102444800" && headers["apns-collapse-id"] == "score")
            #expect(deliveries[0].payload == notification.payload)
            try await client.shutdown()
        }
    }

    @Test("a topic the key may not use, or a client that cannot speak HTTP/2, gets no notification through")
    func refused() async throws {
        try await APNsTestServer.with { server in
            let client = try Self.client()
            let apns = try Self.apns(server, client: client)
            #expect(await apns.send(Self.notification(Self.good, topic: "com.other.app")) == .failed("BadTopic"))
            let http1 = try Self.client(http1Only: true)
            let old = try Self.apns(server, client: http1)
            guard case .retry = await old.send(Self.notification(Self.good)) else {
                Issue.record("an HTTP/1.1 client reached the HTTP/2-only stand-in")
                return
            }
            #expect(server.deliveries.isEmpty)
            try await client.shutdown()
            try await http1.shutdown()
        }
    }

    @Test("a provider token signed by another key is refused")
    func forgedKey() async throws {
        try await APNsTestServer.with { server in
            let client = try Self.client()
            let other = try APNsCredentials(keyPEM: APNSPayloadFixture.otherKeyPEM, keyId: server.keyId, teamId: server.teamId)
            let apns = APNsClient(credentials: other, client: client, productionURL: server.baseURL, sandboxURL: server.baseURL)
            #expect(await apns.send(Self.notification(Self.good)) == .failed("InvalidProviderToken"))
            #expect(server.deliveries.isEmpty)
            try await client.shutdown()
        }
    }
}

/// Notifications and keys for the APNs tests.
enum APNSPayloadFixture {
    static func alert(token: String, topic: String) -> APNsNotification {
        APNsPayload.notification(data: ["alert": "Hello", "badge": 1, "game": "chess"], deviceToken: token, topic: topic)
    }

    /// A P-256 key the stand-in does not know (the test certificate's).
    static let otherKeyPEM = TestCertificate.privateKeyPEM
}
