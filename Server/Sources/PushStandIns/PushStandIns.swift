import CirrusModel
import CirrusTesting
import Foundation
import Hummingbird
import Logging
import ServiceLifecycle
import UnixSignals

/// The APNs and FCM stand-ins (CirrusTesting) as a process, for the tests and benchmarks that drive a live
/// `cirrus serve` from outside Swift: the Python SDK tests (Tests/python/test_push.py) and bench/push.sh.
///
/// `PushStandIns <directory>` starts both stand-ins and a plain-HTTP control server on loopback, writes into
/// `<directory>` what `cirrus serve` needs to reach them (`apns-key.p8`, `fcm-service-account.json`, `ca.pem`) and,
/// last, `stand-ins.json` (the addresses, the key id, team id and topic), then runs until SIGTERM or SIGINT. The
/// control server answers:
/// - `GET /deliveries`: `{"apns": [{token, headers, payload}], "apnsAccepted", "apnsRefusals", "fcm": [message]}`;
/// - `PUT /behaviour`: `{"apns": {badTokens, unregistered, throttled, failing, keepsDeliveries},
///   "fcm": {unregistered, invalid, throttled, failing}}` (token lists; what is absent is emptied) replaces what the
///   stand-ins answer from then on.
@main
struct PushStandIns {
    static func main() async throws {
        guard CommandLine.arguments.count == 2 else {
            FileHandle.standardError.write(Data("usage: PushStandIns <directory>\n".utf8))
            exit(2)
        }
        let directory = URL(fileURLWithPath: CommandLine.arguments[1], isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try await APNsTestServer.with { apns in
            try await FCMTestServer.with { fcm in
                try await serve(apns: apns, fcm: fcm, directory: directory)
            }
        }
    }

    static func serve(apns: APNsTestServer, fcm: FCMTestServer, directory: URL) async throws {
        @Sendable func write(_ name: String, _ text: String) throws {
            try Data(text.utf8).write(to: directory.appendingPathComponent(name), options: .atomic)
        }
        try write("apns-key.p8", apns.keyPEM)
        try write("fcm-service-account.json", fcm.serviceAccountJSON)
        try write("ca.pem", TestCertificate.certificatePEM)
        var logger = Logger(label: "cirrus.push-stand-ins")
        logger.logLevel = .warning
        let application = Application(
            router: controlRouter(apns: apns, fcm: fcm), configuration: .init(address: .hostname("127.0.0.1", port: 0)),
            onServerRunning: { channel in
                let description: JSON = [
                    "apnsURL": .string(apns.baseURL), "keyId": .string(apns.keyId), "teamId": .string(apns.teamId),
                    "topic": .string(apns.behaviour.topic), "fcmURL": .string(fcm.baseURL),
                    "controlURL": .string("http://127.0.0.1:\(channel.localAddress?.port ?? 0)"),
                ]
                try? write("stand-ins.json", JSONWriter.string(description))
            },
            logger: logger
        )
        let group = ServiceGroup(configuration: .init(services: [application], gracefulShutdownSignals: [.sigterm, .sigint], logger: logger))
        try await group.run()
    }

    static func controlRouter(apns: APNsTestServer, fcm: FCMTestServer) -> Router<BasicRequestContext> {
        let router = Router()
        router.get("/deliveries") { _, _ -> Response in
            let sent: JSON = [
                "apns": .array(apns.deliveries.map { delivery in
                    [
                        "token": .string(delivery.token), "headers": .object(delivery.headers.mapValues { .string($0) }),
                        "payload": delivery.payload,
                    ]
                }),
                "apnsAccepted": .int(Int64(apns.accepted)), "apnsRefusals": .array(apns.refusals.map { .string($0) }),
                "fcm": .array(fcm.deliveries),
            ]
            return reply(sent)
        }
        router.put("/behaviour") { request, _ -> Response in
            let body = try await request.body.collect(upTo: 16 << 20)
            guard let json = try? JSONParser.parse(Array(body.readableBytesView)) else { return Response(status: .badRequest) }
            func tokens(_ side: String, _ key: String) -> Set<String> {
                Set(json[side]?[key]?.arrayValue?.compactMap(\.stringValue) ?? [])
            }
            var apnsBehaviour = APNsTestServer.Behaviour()
            apnsBehaviour.badTokens = tokens("apns", "badTokens")
            apnsBehaviour.unregistered = tokens("apns", "unregistered")
            apnsBehaviour.throttled = tokens("apns", "throttled")
            apnsBehaviour.failing = tokens("apns", "failing")
            apnsBehaviour.keepsDeliveries = json["apns"]?["keepsDeliveries"]?.boolValue ?? true
            apns.behaviour = apnsBehaviour
            var fcmBehaviour = FCMTestServer.Behaviour()
            fcmBehaviour.unregistered = tokens("fcm", "unregistered")
            fcmBehaviour.invalid = tokens("fcm", "invalid")
            fcmBehaviour.throttled = tokens("fcm", "throttled")
            fcmBehaviour.failing = tokens("fcm", "failing")
            fcm.behaviour = fcmBehaviour
            return reply(["ok": true])
        }
        return router
    }

    static func reply(_ json: JSON) -> Response {
        Response(status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(bytes: JSONWriter.bytes(json))))
    }
}
