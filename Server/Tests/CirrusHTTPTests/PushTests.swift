import AsyncHTTPClient
import CirrusMessaging
import CirrusModel
import CirrusServer
import CirrusServices
import CirrusTesting
import HTTPTypes
import NIOSSL
import Testing

@Suite("Pushes sent to the APNs and FCM stand-ins")
struct PushTests {
    static let topic = "com.example.app"

    /// The `n`th device token: 64 hex digits, zero-padded (so that no two numbers give one token).
    static func token(_ n: Int) -> String {
        let hex = String(n, radix: 16)
        return String(repeating: "0", count: 64 - hex.count) + hex
    }

    /// A server whose pushes go to the stand-ins: APNs for iOS tokens listed in `unregistered` answers 410, FCM for
    /// `gone-*` tokens `UNREGISTERED`.
    /// `failing` iOS tokens get APNs' 500 every time; `fcmDown` points the FCM client at port 1, where nothing listens.
    static func withPushServer(
        unregistered: Set<String> = [], failing: Set<String> = [], fcmDown: Bool = false,
        _ body: @Sendable (TestClient, APNsTestServer, FCMTestServer) async throws -> Void
    ) async throws {
        var apnsBehaviour = APNsTestServer.Behaviour()
        apnsBehaviour.unregistered = unregistered
        apnsBehaviour.failing = failing
        var fcmSettings = FCMTestServer.Behaviour()
        fcmSettings.unregistered = ["gone-1", "gone-2"]
        let fcmBehaviour = fcmSettings
        try await APNsTestServer.with(behaviour: apnsBehaviour) { apnsServer in
            try await FCMTestServer.with(behaviour: fcmBehaviour) { fcmServer in
                var tls = TLSConfiguration.makeClientConfiguration()
                tls.trustRoots = .certificates(try NIOSSLCertificate.fromPEMBytes(Array(TestCertificate.certificatePEM.utf8)))
                let http = HTTPClient(eventLoopGroupProvider: .singleton, configuration: .init(tlsConfiguration: tls))
                let credentials = try APNsCredentials(keyPEM: apnsServer.keyPEM, keyId: apnsServer.keyId, teamId: apnsServer.teamId)
                let apns = APNsClient(credentials: credentials, client: http, productionURL: apnsServer.baseURL, sandboxURL: apnsServer.baseURL)
                let fcmURL = fcmDown ? "http://127.0.0.1:1" : fcmServer.baseURL  // nothing listens on port 1
                let fcm = FCMClient(
                    account: try FCMServiceAccount(json: Array(fcmServer.serviceAccountJSON.utf8)), client: http, baseURL: fcmURL, timeout: .seconds(30)
                )
                do {
                    try await TestServer.with(configure: { configuration in
                        configuration.push.apnsSender = apns
                        configuration.push.fcmSender = fcm
                        configuration.push.apnsTopic = topic
                    }) { client in
                        try await body(client, apnsServer, fcmServer)
                    }
                } catch {
                    try? await http.shutdown()
                    throw error
                }
                try await http.shutdown()
            }
        }
    }

    static func install(_ client: TestClient, _ body: JSON) async throws -> String {
        let reply = try await client.send(.leancloud, .post, "/1.1/installations", json: body)
        #expect(reply.status == 201, "\(reply.bodyText)")
        return reply.json["objectId"]?.stringValue ?? ""
    }

    /// Waits until the push's record is done (or another end), and answers it: up to `minutes`, for a machine running
    /// hundreds of tests at once.
    static func finished(_ client: TestClient, _ objectId: String, minutes: Int = 1) async throws -> JSON {
        for _ in 0..<(1200 * minutes) {
            let record = try await client.send(.leancloud, .get, "/1.1/notifications/" + objectId, auth: .master).json
            if let status = record["status"]?.stringValue, !["scheduled", "sending"].contains(status) { return record }
            try await Task.sleep(for: .milliseconds(50))
        }
        Issue.record("the push did not finish")
        return [:]
    }

    @Test("a push to a channel reaches its iOS and Android devices, increments badges and removes dead tokens")
    func channel() async throws {
        let dead = Self.token(99)
        try await Self.withPushServer(unregistered: [dead]) { client, apnsServer, fcmServer in
            let ios = try await Self.install(client, ["deviceType": "ios", "deviceToken": .string(Self.token(1)), "channels": ["news"], "badge": 4])
            let gone = try await Self.install(client, ["deviceType": "ios", "deviceToken": .string(dead), "channels": ["news"]])
            _ = try await Self.install(client, ["deviceType": "android", "deviceToken": "fcm-1", "installationId": "i-1", "channels": ["news"]])
            let goneAndroid = try await Self.install(client, ["deviceType": "android", "deviceToken": "gone-1", "installationId": "i-2", "channels": ["news"]])
            _ = try await Self.install(client, ["deviceType": "ios", "deviceToken": .string(Self.token(2)), "channels": ["sports"]])

            let sent = try await client.send(.leancloud, .post, "/1.1/push", json: [
                "channels": ["news"], "data": ["alert": "Breaking", "badge": "Increment", "android": ["alert": "Breaking (Android)"]],
            ], auth: .master)
            #expect(sent.status == 200)
            let record = try await Self.finished(client, sent.json["objectId"]?.stringValue ?? "")
            #expect(record["status"] == "done")
            #expect([record["successes"], record["invalid"], record["errors"]] == [2, 2, 0])

            #expect(apnsServer.deliveries.map(\.token) == [Self.token(1)])
            #expect(apnsServer.deliveries.first?.payload == ["aps": ["alert": "Breaking", "badge": 5]])
            #expect(fcmServer.deliveries.map { $0["token"] } == ["fcm-1"])
            #expect(fcmServer.deliveries.first?["notification"] == ["body": "Breaking (Android)"])
            let installation = try await client.send(.leancloud, .get, "/1.1/installations/" + ios, auth: .master).json
            #expect(installation["badge"] == 5)
            for removed in [gone, goneAndroid] {
                #expect(try await client.send(.leancloud, .get, "/1.1/installations/" + removed, auth: .master).json == [:])
            }
        }
    }

    @Test("a push to a where query reaches the installations it matches, and a req_id sends it once")
    func whereAndRequestId() async throws {
        try await Self.withPushServer { client, apnsServer, _ in
            for n in 1...12 {
                _ = try await Self.install(client, ["deviceType": "ios", "deviceToken": .string(Self.token(n)), "level": .int(Int64(n))])
            }
            let body: JSON = ["where": ["level": ["$gte": 10]], "data": ["alert": "Top"], "req_id": "abc123"]
            let first = try await client.send(.leancloud, .post, "/1.1/push", json: body, auth: .master)
            let again = try await client.send(.leancloud, .post, "/1.1/push", json: body, auth: .master)
            #expect(first.json["objectId"] == again.json["objectId"])
            _ = try await Self.finished(client, first.json["objectId"]?.stringValue ?? "")
            #expect(Set(apnsServer.deliveries.map(\.token)) == Set((10...12).map(Self.token)))
        }
    }

    @Test("a push to a CQL audience reaches the installations its select matches")
    func cqlAudience() async throws {
        try await Self.withPushServer { client, apnsServer, _ in
            for n in 1...6 {
                _ = try await Self.install(client, ["deviceType": "ios", "deviceToken": .string(Self.token(n)), "level": .int(Int64(n))])
            }
            let sent = try await client.send(.leancloud, .post, "/1.1/push", json: [
                "cql": "select * from _Installation where level >= 5 and deviceType = 'ios'", "data": ["alert": "CQL"],
            ], auth: .master)
            let record = try await Self.finished(client, sent.json["objectId"]?.stringValue ?? "")
            #expect(record["cql"] == "select * from _Installation where level >= 5 and deviceType = 'ios'")
            #expect(record["successes"] == 2)
            #expect(Set(apnsServer.deliveries.map(\.token)) == [Self.token(5), Self.token(6)])
        }
    }

    @Test("a push whose audience matches no installation, or names a field no installation has, finishes with no device")
    func emptyAudience() async throws {
        try await Self.withPushServer { client, apnsServer, _ in
            _ = try await Self.install(client, ["deviceType": "ios", "deviceToken": .string(Self.token(1)), "channels": ["a"]])
            for audience: JSON in [["channels": ["nobody"]], ["where": ["noSuchField": 3]], ["where": ["deviceType": "symbian"]]] {
                var body = audience.objectValue ?? [:]
                body["data"] = ["alert": "Anyone?"]
                let sent = try await client.send(.leancloud, .post, "/1.1/push", json: .object(body), auth: .master)
                let record = try await Self.finished(client, sent.json["objectId"]?.stringValue ?? "")
                #expect(record["status"] == "done")
                #expect(record["devices"] == 0)
            }
            #expect(apnsServer.deliveries.isEmpty)
        }
    }

    @Test("a push to listed devices reaches them alone: Apple devices by token (in either case), Android by installation id")
    func listedDevices() async throws {
        try await Self.withPushServer { client, apnsServer, fcmServer in
            for n in 1...3 { _ = try await Self.install(client, ["deviceType": "ios", "deviceToken": .string(Self.token(n))]) }
            for n in 1...2 {
                _ = try await Self.install(client, ["deviceType": "android", "deviceToken": .string("fcm-\(n)"), "installationId": .string("i-\(n)")])
            }
            let ios = try await client.send(.leancloud, .post, "/1.1/push/devices", json: [
                "device_type": "ios", "device_ids": [.string(Self.token(1).uppercased()), .string(Self.token(3))], "data": ["alert": "Listed"],
            ], auth: .master)
            #expect(ios.status == 200, "\(ios.bodyText)")
            let android = try await client.send(.leancloud, .post, "/1.1/push/devices", json: [
                "device_type": "android", "device_ids": ["i-2"], "data": ["alert": "Listed"],
            ], auth: .master)
            _ = try await Self.finished(client, ios.json["objectId"]?.stringValue ?? "")
            _ = try await Self.finished(client, android.json["objectId"]?.stringValue ?? "")
            #expect(Set(apnsServer.deliveries.map(\.token)) == [Self.token(1), Self.token(3)])
            #expect(fcmServer.deliveries.map { $0["token"] } == ["fcm-2"])
        }
    }

    @Test("Parse reads the push records as its _PushStatus class, with where, order, count, and for the master key only")
    func parsePushStatus() async throws {
        try await Self.withPushServer { client, _, _ in
            _ = try await Self.install(client, ["deviceType": "ios", "deviceToken": .string(Self.token(1)), "channels": ["c"]])
            let sent = try await client.send(.parse, .post, "/parse/push", json: ["channels": ["c"], "data": ["alert": "To Parse"]], auth: .master)
            let id = sent.headers[HTTPField.Name("X-Parse-Push-Status-Id")!] ?? ""
            _ = try await Self.finished(client, id)
            let later = Timestamp(millisecondsSince1970: Timestamp.now().millisecondsSince1970 + 3_600_000)
            _ = try await client.send(.parse, .post, "/parse/push", json: ["channels": ["c"], "data": ["alert": "Later"], "push_time": .string(later.iso8601)], auth: .master)

            let one = try await client.send(.parse, .get, "/parse/classes/_PushStatus/" + id, auth: .master).json
            #expect(one["status"] == "succeeded")
            #expect([one["numSent"], one["numFailed"], one["count"]] == [1, 0, 1])
            #expect(one["payload"] == #"{"alert":"To Parse"}"#)
            #expect(one["query"] == #"{"channels":{"$in":["c"]}}"#)
            let all = try await client.send(.parse, .get, "/parse/classes/_PushStatus?count=1", auth: .master).json
            #expect(all["count"] == 2)
            #expect(all["results"]?[0]?["status"] == "scheduled")
            let condition = URLQuery.encode(#"{"status":"succeeded"}"#)
            let done = try await client.send(.parse, .get, "/parse/classes/_PushStatus?where=\(condition)&order=createdAt", auth: .master).json
            #expect(done["results"]?.arrayValue?.map { $0["objectId"] } == [.string(id)])
            let refused = try await client.send(.parse, .get, "/parse/classes/_PushStatus", auth: .appKey)
            #expect(refused.status >= 400)
            #expect(!refused.bodyText.contains("To Parse"))
        }
    }

    @Test("10 000 installations are each sent one notification, read from the store a page at a time")
    func manyInstallations() async throws {
        try await Self.withPushServer { client, apnsServer, _ in
            // On PostgreSQL 2 500 (five full pages of the sender's 500, then the empty read that ends it): the store's part is the paged read,
            // the rest is the same code as on SQLite, and CI's time is short.
            let count = TestStore.isPostgres ? 2_500 : 10_000
            for start in stride(from: 0, to: count, by: 100) {
                let requests: [JSON] = (start..<start + 100).map { n in
                    ["method": "POST", "path": "/1.1/classes/_Installation", "body": ["deviceType": "ios", "deviceToken": .string(Self.token(n + 1)), "channels": ["all"]]]
                }
                let reply = try await client.send(.leancloud, .post, "/1.1/batch", json: ["requests": .array(requests)], auth: .master)
                #expect(reply.status == 200)
                #expect(reply.json.arrayValue?.allSatisfy { $0["success"] != nil } == true, "\(reply.bodyText.prefix(300))")
            }
            let stored = try await client.send(.leancloud, .get, "/1.1/installations?count=1&limit=0", auth: .master)
            #expect(stored.json["count"] == .int(Int64(count)))
            let sent = try await client.send(.leancloud, .post, "/1.1/push", json: ["channels": ["all"], "data": ["alert": "Everyone"]], auth: .master)
            let record = try await Self.finished(client, sent.json["objectId"]?.stringValue ?? "", minutes: 10)
            #expect(record["status"] == "done")
            #expect(record["successes"] == .int(Int64(count)))
            let tokens = apnsServer.deliveries.map(\.token)
            #expect(tokens.count == count)
            #expect(Set(tokens) == Set((1...count).map(Self.token)))
        }
    }

    @Test("a provider that fails or is down costs only its own devices: the rest are served and the push finishes")
    func providerDown() async throws {
        let failing = Self.token(3)
        try await Self.withPushServer(failing: [failing], fcmDown: true) { client, apnsServer, _ in
            for n in 1...3 {
                _ = try await Self.install(client, ["deviceType": "ios", "deviceToken": .string(Self.token(n)), "channels": ["c"]])
            }
            let android = try await Self.install(client, ["deviceType": "android", "deviceToken": "fcm-9", "installationId": "i-9", "channels": ["c"]])
            let sent = try await client.send(.leancloud, .post, "/1.1/push", json: ["channels": ["c"], "data": ["alert": "Hi"]], auth: .master)
            let record = try await Self.finished(client, sent.json["objectId"]?.stringValue ?? "", minutes: 3)
            #expect(record["status"] == "done")
            #expect([record["successes"], record["invalid"], record["errors"]] == [2, 0, 2])
            #expect(Set(apnsServer.deliveries.map(\.token)) == [Self.token(1), Self.token(2)])
            // APNs was asked three times for the failing token (two retries), and no device was removed for it.
            #expect(apnsServer.refusals.filter { $0 == "InternalServerError" }.count == 3)
            #expect(try await client.send(.leancloud, .get, "/1.1/installations/" + android, auth: .master).json["deviceToken"] == "fcm-9")
        }
    }

    @Test("a scheduled push is listed and cancelled, and is never sent")
    func scheduled() async throws {
        try await Self.withPushServer { client, apnsServer, _ in
            _ = try await Self.install(client, ["deviceType": "ios", "deviceToken": .string(Self.token(1))])
            let later = Timestamp(millisecondsSince1970: Timestamp.now().millisecondsSince1970 + 3_600_000)
            let sent = try await client.send(.leancloud, .post, "/1.1/push", json: [
                "data": ["alert": "Later"], "push_time": .string(later.iso8601), "expiration_interval": 600,
            ], auth: .master)
            let listed = try await client.send(.leancloud, .get, "/1.1/scheduledPushMessages", auth: .master).json["results"]?.arrayValue ?? []
            #expect(listed.count == 1)
            #expect(listed.first?["push_msg"]?["data"] == ["alert": "Later"])
            #expect(listed.first?["expire_time"] == .int(later.millisecondsSince1970 + 600_000))
            let id = listed.first?["id"]?.intValue ?? 0
            #expect(try await client.send(.leancloud, .delete, "/1.1/scheduledPushMessages/\(id)", auth: .master).status == 200)
            let record = try await client.send(.leancloud, .get, "/1.1/notifications/" + (sent.json["objectId"]?.stringValue ?? ""), auth: .master).json
            #expect(record["status"] == "cancelled")
            #expect(try await client.send(.leancloud, .get, "/1.1/scheduledPushMessages", auth: .master).json["results"] == [])
            #expect(apnsServer.deliveries.isEmpty)
        }
    }

    struct Refusal: Sendable {
        var dialect: Dialect
        var path = "/push"
        var body: JSON
        var master = true
        var code: Int64
    }

    static let refusals: [Refusal] = [
        Refusal(dialect: .parse, body: ["where": [:], "channels": ["a"], "data": ["alert": "x"]], code: 115),
        Refusal(dialect: .parse, body: ["data": ["alert": "x"]], code: 115),
        Refusal(dialect: .leancloud, body: ["channels": ["a"]], code: 1),
        Refusal(dialect: .leancloud, body: ["data": ["alert": "x"], "expiration_time": "2030-01-01T00:00:00Z", "expiration_interval": 5], code: 1),
        Refusal(dialect: .leancloud, body: ["data": ["alert": .string(String(repeating: "x", count: 5000))]], code: 1),
        Refusal(dialect: .leancloud, body: ["data": ["alert": "x"], "req_id": "not valid!"], code: 1),
        Refusal(dialect: .leancloud, body: ["data": ["alert": "x"]], master: false, code: 1),
        Refusal(dialect: .leancloud, body: ["data": ["alert": "x"], "cql": "select * from _Installation", "channels": ["a"]], code: 1),
        Refusal(dialect: .leancloud, body: ["data": ["alert": "x"], "cql": "select * from _User"], code: 1),
        Refusal(dialect: .leancloud, body: ["data": ["alert": "x"], "cql": "select * from _Installation where"], code: 1),
        Refusal(dialect: .leancloud, body: ["data": ["alert": "x"], "cql": "delete from _Installation where objectId = 'a'"], code: 1),
        Refusal(dialect: .leancloud, body: ["data": ["alert": "x"], "cql": 5], code: 1),
        Refusal(dialect: .leancloud, path: "/push/devices", body: ["data": ["alert": "x"], "device_ids": ["a"]], code: 1),
        Refusal(dialect: .leancloud, path: "/push/devices", body: ["data": ["alert": "x"], "device_type": "ios", "device_ids": []], code: 1),
        Refusal(
            dialect: .leancloud, path: "/push/devices",
            body: ["data": ["alert": "x"], "device_type": "ios", "device_ids": .array((0...500).map { .string("t\($0)") })], code: 1
        ),
        Refusal(dialect: .leancloud, path: "/push/devices", body: ["data": ["alert": "x"], "device_type": "ios", "device_ids": ["a"], "where": [:]], code: 1),
        Refusal(dialect: .leancloud, path: "/push/devices", body: ["data": ["alert": "x"], "device_type": "ios", "device_ids": ["a"]], master: false, code: 1),
    ]

    @Test("a push is refused when it is malformed or comes from a client, in each dialect's terms", arguments: refusals)
    func refused(_ refusal: Refusal) async throws {
        try await TestServer.with { client in
            let prefix = refusal.dialect == .parse ? "/parse" : "/1.1"
            let reply = try await client.send(refusal.dialect, .post, prefix + refusal.path, json: refusal.body, auth: refusal.master ? .master : .appKey)
            #expect(reply.status == 400 || reply.status == 403)
            #expect(reply.json["code"]?.intValue == refusal.code)
            #expect(try await client.send(.leancloud, .get, "/1.1/notifications", auth: .master).json["results"] == [])
        }
    }
}
