import AsyncHTTPClient
import CirrusMessaging
import CirrusModel
import CirrusServices
import CirrusTesting
import Testing

@Suite("The FCM client against stand-ins for Google's token endpoint and FCM's HTTP v1 API")
struct FCMClientTests {
    static func fcm(_ server: FCMTestServer, client: HTTPClient) throws -> FCMClient {
        FCMClient(account: try FCMServiceAccount(json: Array(server.serviceAccountJSON.utf8)), client: client, baseURL: server.baseURL)
    }

    @Test("each answer FCM gives means what it should for the device", arguments: [
        ("good-token", DeliveryOutcome.delivered), ("gone-token", .invalidToken("UNREGISTERED")),
        ("bad-token", .invalidToken("INVALID_ARGUMENT")), ("busy-token", .retry("QUOTA_EXCEEDED")), ("broken-token", .retry("INTERNAL")),
    ])
    func outcomes(token: String, expected: DeliveryOutcome) async throws {
        var behaviour = FCMTestServer.Behaviour()
        behaviour.unregistered = ["gone-token"]
        behaviour.invalid = ["bad-token"]
        behaviour.throttled = ["busy-token"]
        behaviour.failing = ["broken-token"]
        try await FCMTestServer.with(behaviour: behaviour) { server in
            let client = HTTPClient(eventLoopGroupProvider: .singleton)
            let fcm = try Self.fcm(server, client: client)
            #expect(await fcm.send(FCMNotification.from(data: ["alert": "Hi"], token: token)) == expected)
            try await client.shutdown()
        }
    }

    @Test("messages go with one access token, exchanged once from a signed assertion, in FCM's message form")
    func delivered() async throws {
        try await FCMTestServer.with { server in
            let client = HTTPClient(eventLoopGroupProvider: .singleton)
            let fcm = try Self.fcm(server, client: client)
            let notification = FCMNotification.from(data: ["alert": "Hello", "title": "Game", "level": 3, "android": ["alert": "For Android", "title": "T", "k": "v"]], token: "t1", timeToLive: 60)
            for _ in 0..<3 { #expect(await fcm.send(notification) == .delivered) }
            #expect(server.tokenExchanges == 1)
            #expect(server.deliveries.count == 3)
            #expect(server.deliveries[0] == [
                "token": "t1", "notification": ["title": "T", "body": "For Android"], "data": ["k": "v"], "android": ["priority": "high", "ttl": "60s"],
            ])
            try await client.shutdown()
        }
    }

    static let messages: [(JSON, JSON)] = [
        (["alert": "Hi", "n": 1, "ios": ["alert": "x"]], ["token": "t", "notification": ["body": "Hi"], "data": ["n": "1"], "android": ["priority": "high"]]),
        (["alert": "Hi", "silent": true, "action": "com.x.UPDATE"], ["token": "t", "data": ["action": "com.x.UPDATE"], "android": ["priority": "high"]]),
        (
            ["fcm": ["title": "F", "alert": "fcm", "collapse-id": "c"], "android": ["alert": "a"]],
            ["token": "t", "notification": ["title": "F", "body": "fcm"], "android": ["priority": "high", "collapse_key": "c"]]
        ),
    ]

    @Test("a push's data becomes an FCM message: notification, string data, silence", arguments: messages)
    func message(data: JSON, message: JSON) {
        #expect(FCMNotification.from(data: data.objectValue!, token: "t").message == message)
    }

    @Test("a service account file without its key or with a malformed key is refused with what is wrong", arguments: [
        "[]", #"{"project_id":"p","client_email":"e"}"#, #"{"project_id":"p","client_email":"e","private_key":"nope"}"#,
    ])
    func malformedAccount(json: String) {
        #expect(throws: PushConfigurationError.self) { try FCMServiceAccount(json: Array(json.utf8)) }
    }
}
