import CirrusModel
import CirrusTesting
import Foundation
import Testing

/// Installations and push records × every caller but the master × every dialect: no list, search, count, CQL or
/// batch path shows a device token to a client (LeanCloud closes `_Installation`'s find; a device reads its own
/// installation by the objectId only it was given), push records and scheduled pushes are the master's, and a
/// refused delete, cancel or push changes nothing.
@Suite("Attack matrix: installations and pushes")
struct PushMatrixTests {
    enum Probe: String, CaseIterable, Sendable, CustomTestStringConvertible {
        case listInstallations, findClass, findByToken, count, cql, batchFind, notifications, notification, notificationTable,
            scheduled, pushStatuses, pushStatus, deleteInstallation, cancelScheduled, push, pushDevices
        var testDescription: String { rawValue }
    }

    static let cases = Endpoint.matrix(Probe.self)
    static let callers = Principal.allCases.filter { $0 != .master }

    /// The device token and the push's text no client may see.
    struct Secrets {
        let token = (UUID().uuidString + UUID().uuidString).lowercased().filter(\.isHexDigit).prefix(64).description
        let text = "PUSH-SECRET-" + UUID().uuidString
        var installation = ""
        var push = ""
        var serial: Int64 = 0
    }

    @Test("no client reads a device token or a push record, and a client's delete, cancel or push changes nothing", arguments: cases)
    func guarded(_ endpoint: Endpoint, _ probe: Probe) async throws {
        try await TestServer.with { client in
            let users = try await PermissionFixture.make(client, endpoint)
            var secrets = Secrets()
            let made = try await client.send(.leancloud, .post, "/1.1/installations", json: [
                "deviceType": "ios", "deviceToken": .string(secrets.token), "channels": ["c"],
            ])
            #expect(made.status == 201, "\(made.bodyText)")
            secrets.installation = made.json["objectId"]?.stringValue ?? ""
            let later = Timestamp.now().adding(.seconds(3600))
            let push = try await client.send(.leancloud, .post, "/1.1/push", json: [
                "channels": ["c"], "data": ["alert": .string(secrets.text)], "push_time": .string(later.iso8601),
            ], auth: .master)
            secrets.push = push.json["objectId"]?.stringValue ?? ""
            let listed = try await client.send(.leancloud, .get, "/1.1/scheduledPushMessages", auth: .master)
            secrets.serial = listed.json["results"]?[0]?["id"]?.intValue ?? 0

            for caller in Self.callers {
                let (reply, refused) = try await Self.probe(probe, client, endpoint, secrets, users.auth(caller))
                #expect(!reply.bodyText.contains(secrets.token), "\(probe) as \(caller) in \(endpoint.dialect): \(reply.bodyText)")
                #expect(!reply.bodyText.contains(secrets.text), "\(probe) as \(caller) in \(endpoint.dialect): \(reply.bodyText)")
                #expect(refused, "\(probe) as \(caller) in \(endpoint.dialect) answered \(reply.status): \(reply.bodyText)")
            }
            // Nothing changed: the installation, the scheduled push, and no other push.
            let stored = try await client.send(.leancloud, .get, "/1.1/installations/" + secrets.installation, auth: .master)
            #expect(stored.json["deviceToken"]?.stringValue == secrets.token)
            let records = try await client.send(.leancloud, .get, "/1.1/notifications", auth: .master).json["results"]?.arrayValue ?? []
            #expect(records.map { $0["status"] } == ["scheduled"])
            // The master key reaches what the probe asks for (so a refusal above is not a broken path).
            let reaches = endpoint.dialect == .leancloud ? Self.masterReaches : endpoint.dialect == .parse ? Self.parseMasterReaches : [:]
            if let reached = reaches[probe] {
                let (reply, _) = try await Self.probe(probe, client, endpoint, secrets, .master)
                #expect(reply.bodyText.contains(reached == .token ? secrets.token : secrets.text), "\(probe) as master: \(reply.bodyText)")
            }
        }
    }

    enum Secret { case token, text }

    /// What the master key's reply to a read probe holds.
    static let masterReaches: [Probe: Secret] = [
        .listInstallations: .token, .findClass: .token, .findByToken: .token, .cql: .token, .batchFind: .token,
        .notifications: .text, .notification: .text, .notificationTable: .text, .scheduled: .text,
    ]
    /// Parse's names for the records, read by the master key through the Parse dialect.
    static let parseMasterReaches: [Probe: Secret] = [.pushStatuses: .text, .pushStatus: .text]

    /// The reply to a probe, and whether it is a refusal (an error status, or for a batch an error item).
    static func probe(
        _ probe: Probe, _ client: TestClient, _ endpoint: Endpoint, _ secrets: Secrets, _ auth: TestClient.Auth
    ) async throws -> (TestReply, refused: Bool) {
        let reply = try await send(probe, client, endpoint, secrets, auth)
        return (reply, reply.isRefusal(batch: probe == .batchFind))
    }

    static func send(_ probe: Probe, _ client: TestClient, _ endpoint: Endpoint, _ secrets: Secrets, _ auth: TestClient.Auth) async throws -> TestReply {
        func get(_ path: String) async throws -> TestReply { try await client.request(endpoint, .get, path, auth: auth) }
        switch probe {
        case .listInstallations: return try await get("/installations")
        case .findClass: return try await get("/classes/_Installation")
        case .findByToken: return try await get("/classes/_Installation?where=" + URLQuery.encode(#"{"deviceToken":"\#(secrets.token)"}"#))
        case .count: return try await get("/classes/_Installation?count=1&limit=0")
        case .cql:
            let statement = "select * from _Installation"
            return try await get("/cloudQuery?\(endpoint.dialect == .bmob ? "bql" : "cql")=" + URLQuery.encode(statement))
        case .batchFind:
            // A batch answers 200 with each item's own result.
            return try await client.request(endpoint, .post, "/batch", json: [
                "requests": [["method": "GET", "path": .string(endpoint.prefix + "/classes/_Installation")]],
            ], auth: auth)
        case .notifications: return try await get("/notifications")
        case .notification: return try await get("/notifications/" + secrets.push)
        case .notificationTable: return try await get("/tables/Notifications/" + secrets.push)
        case .scheduled: return try await get("/scheduledPushMessages")
        case .pushStatuses: return try await get("/classes/_PushStatus")
        case .pushStatus: return try await get("/classes/_PushStatus/" + secrets.push)
        case .deleteInstallation: return try await client.request(endpoint, .delete, "/installations/" + secrets.installation, auth: auth)
        case .cancelScheduled: return try await client.request(endpoint, .delete, "/scheduledPushMessages/\(secrets.serial)", auth: auth)
        case .push: return try await client.request(endpoint, .post, "/push", json: ["channels": ["c"], "data": ["alert": "x"]], auth: auth)
        case .pushDevices:
            return try await client.request(
                endpoint, .post, "/push/devices", json: ["device_type": "ios", "device_ids": [.string(secrets.token)], "data": ["alert": "x"]], auth: auth
            )
        }
    }
}
