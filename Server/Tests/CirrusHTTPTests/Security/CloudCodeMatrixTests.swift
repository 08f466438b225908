import CirrusModel
import CirrusServer
import CirrusTesting
import Foundation
import Testing

/// Cloud code × every caller but the master × every dialect: the webhook registrations (whose URLs and keys decide
/// what runs on every write), the scheduled jobs and the engine's hook list are the master's, and no client skips the
/// app's hooks (`__ignore_hooks`) without the hook key — not with a forged one, not inside a batch. A refused
/// registration, change, run or write changes nothing.
@Suite("Attack matrix: cloud code")
struct CloudCodeMatrixTests {
    enum Probe: String, CaseIterable, Sendable, CustomTestStringConvertible {
        case webhookFunctions, webhookTriggers, webhookFunction, registerWebhook, changeWebhook, deleteWebhook,
            jobs, job, jobRuns, addJob, changeJob, runJob, deleteJob, engineMetadata,
            createSkippingHooks, updateSkippingHooks, deleteSkippingHooks, batchSkippingHooks
        var testDescription: String { rawValue }
    }

    static let cases = Endpoint.matrix(Probe.self)
    static let callers = Principal.allCases.filter { $0 != .master }
    static let hookKey = "the-right-hook-key"

    /// What no client may read or change: a webhook's URL, a job's parameters, a guarded object.
    struct Secrets {
        let webhookURL = "http://127.0.0.1:9/WEBHOOK-SECRET-" + UUID().uuidString
        let jobParameter = "JOB-SECRET-" + UUID().uuidString
        var object = ""
    }

    @Test("no client reads or changes webhooks or jobs, and none skips hooks without the hook key", arguments: cases)
    func guarded(_ endpoint: Endpoint, _ probe: Probe) async throws {
        try await TestServer.with(configure: { $0.keys?.hookKey = Self.hookKey }) { client in
            let users = try await PermissionFixture.make(client, endpoint)
            var secrets = Secrets()
            try await Self.register(client, secrets)
            secrets.object = try await client.create(endpoint, "Guarded", ["n": 1])

            for caller in Self.callers {
                for forged in [false, true] where !forged || probe.skipsHooks {
                    let auth = Self.auth(users.auth(caller), endpoint, forgedHookKey: forged)
                    let (reply, refused) = try await Self.probe(probe, client, endpoint, secrets, auth)
                    let label = "\(probe) as \(caller)\(forged ? " with a forged hook key" : "") in \(endpoint.dialect)"
                    #expect(!reply.bodyText.contains(secrets.webhookURL), "\(label): \(reply.bodyText)")
                    #expect(!reply.bodyText.contains(secrets.jobParameter), "\(label): \(reply.bodyText)")
                    #expect(refused, "\(label) answered \(reply.status): \(reply.bodyText)")
                }
            }
            try await Self.expectUnchanged(client, secrets)
            // The master key reaches what a read probe asks for (so a refusal above is not a broken path).
            if let reached = Self.masterReaches(endpoint.dialect)[probe] {
                let (reply, refused) = try await Self.probe(probe, client, endpoint, secrets, .master)
                #expect(!refused && reply.bodyText.contains(reached(secrets)), "\(probe) as master: \(reply.bodyText)")
            }
        }
    }

    @Test("the right hook key lets a client's write skip hooks", arguments: Endpoint.dialects)
    func hookKeySkips(_ endpoint: Endpoint) async throws {
        try await TestServer.with(configure: { $0.keys?.hookKey = Self.hookKey }) { client in
            let reply = try await client.request(
                endpoint, .post, "/classes/Guarded", json: ["n": 2, "__ignore_hooks": ["beforeSave"]],
                headers: ["X-LC-Hook-Key": Self.hookKey]
            )
            // Only LeanCloud's dialect carries a hook key; elsewhere the skip stays the master's.
            #expect((reply.status == 201) == (endpoint.dialect == .leancloud), "\(endpoint.dialect): \(reply.status) \(reply.bodyText)")
        }
    }

    /// A webhook function and trigger (through Parse, where webhooks live) and a job, made by the master key.
    static func register(_ client: TestClient, _ secrets: Secrets) async throws {
        let function = try await client.send(.parse, .post, "/parse/hooks/functions", json: [
            "functionName": "audit", "url": .string(secrets.webhookURL),
        ], auth: .master)
        #expect(function.status < 300, "\(function.bodyText)")
        let trigger = try await client.send(.parse, .post, "/parse/hooks/triggers", json: [
            "className": "Audited", "triggerName": "beforeSave", "url": .string(secrets.webhookURL),
        ], auth: .master)
        #expect(trigger.status < 300, "\(trigger.bodyText)")
        let job = try await client.send(.leancloud, .post, "/1.1/jobs", json: [
            "name": "nightly", "function": "audit", "cron": "0 0 3 * * ?", "params": ["token": .string(secrets.jobParameter)],
        ], auth: .master)
        #expect(job.status == 201, "\(job.bodyText)")
    }

    /// The webhooks, the job and the object are as the master left them, the job never ran, and no object was added.
    static func expectUnchanged(_ client: TestClient, _ secrets: Secrets) async throws {
        let function = try await client.send(.parse, .get, "/parse/hooks/functions/audit", auth: .master)
        #expect(function.json["url"]?.stringValue == secrets.webhookURL, "\(function.bodyText)")
        let triggers = try await client.send(.parse, .get, "/parse/hooks/triggers", auth: .master)
        #expect(triggers.json.arrayValue?.count == 1 && triggers.bodyText.contains(secrets.webhookURL), "\(triggers.bodyText)")
        let job = try await client.send(.leancloud, .get, "/1.1/jobs/nightly", auth: .master)
        #expect(job.json["params"]?["token"]?.stringValue == secrets.jobParameter && job.json["enabled"] == true, "\(job.bodyText)")
        #expect(job.json["cron"]?.stringValue == "0 0 3 * * ?", "\(job.bodyText)")
        let runs = try await client.send(.leancloud, .get, "/1.1/jobs/nightly/runs", auth: .master)
        #expect(runs.json["results"]?.arrayValue?.isEmpty == true, "\(runs.bodyText)")
        let objects = try await client.send(.leancloud, .get, "/1.1/classes/Guarded", auth: .master)
        #expect(objects.json["results"]?.arrayValue?.map { $0["n"] } == [1], "\(objects.bodyText)")
    }

    /// The caller's headers, with a hook key that is not the app's when `forgedHookKey`.
    static func auth(_ auth: TestClient.Auth, _ endpoint: Endpoint, forgedHookKey: Bool) -> TestClient.Auth {
        guard forgedHookKey else { return auth }
        return .headers(TestClient.authHeaders(endpoint.dialect, auth).merging(["X-LC-Hook-Key": "not-" + hookKey]) { $1 })
    }

    /// What the master key's reply to a read probe holds, per dialect (webhooks are Parse's).
    static func masterReaches(_ dialect: Dialect) -> [Probe: @Sendable (Secrets) -> String] {
        var reaches: [Probe: @Sendable (Secrets) -> String] = [
            .jobs: { $0.jobParameter }, .job: { $0.jobParameter }, .jobRuns: { _ in "results" },
        ]
        if dialect == .parse {
            reaches[.webhookFunctions] = { $0.webhookURL }
            reaches[.webhookTriggers] = { $0.webhookURL }
            reaches[.webhookFunction] = { $0.webhookURL }
        }
        return reaches
    }

    /// The reply to a probe, and whether it is a refusal (an error status, or for a batch an error item).
    static func probe(
        _ probe: Probe, _ client: TestClient, _ endpoint: Endpoint, _ secrets: Secrets, _ auth: TestClient.Auth
    ) async throws -> (TestReply, refused: Bool) {
        let reply = try await send(probe, client, endpoint, secrets, auth)
        return (reply, reply.isRefusal(batch: probe == .batchSkippingHooks))
    }

    static func send(_ probe: Probe, _ client: TestClient, _ endpoint: Endpoint, _ secrets: Secrets, _ auth: TestClient.Auth) async throws -> TestReply {
        func call(_ method: HTTPRequest.Method, _ path: String, _ json: JSON? = nil) async throws -> TestReply {
            try await client.request(endpoint, method, path, json: json, auth: auth)
        }
        let skip: JSON = ["beforeSave", "afterSave", "beforeUpdate", "afterUpdate", "beforeDelete", "afterDelete"]
        switch probe {
        case .webhookFunctions: return try await call(.get, "/hooks/functions")
        case .webhookTriggers: return try await call(.get, "/hooks/triggers")
        case .webhookFunction: return try await call(.get, "/hooks/functions/audit")
        case .registerWebhook: return try await call(.post, "/hooks/functions", ["functionName": "steal", "url": "http://127.0.0.1:9/evil"])
        case .changeWebhook: return try await call(.put, "/hooks/functions/audit", ["url": "http://127.0.0.1:9/evil"])
        case .deleteWebhook: return try await call(.delete, "/hooks/triggers/Audited/beforeSave")
        case .jobs: return try await call(.get, "/jobs")
        case .job: return try await call(.get, "/jobs/nightly")
        case .jobRuns: return try await call(.get, "/jobs/nightly/runs")
        case .addJob: return try await call(.post, "/jobs", ["name": "mine", "function": "audit", "cron": "* * * * *"])
        case .changeJob: return try await call(.put, "/jobs/nightly", ["enabled": false, "cron": "* * * * *"])
        case .runJob: return try await call(.post, "/jobs/nightly/run")
        case .deleteJob: return try await call(.delete, "/jobs/nightly")
        case .engineMetadata: return try await call(.get, "/functions/_ops/metadatas")
        case .createSkippingHooks: return try await call(.post, "/classes/Guarded", ["n": 9, "__ignore_hooks": skip])
        case .updateSkippingHooks: return try await call(.put, "/classes/Guarded/" + secrets.object, ["n": 9, "__ignore_hooks": skip])
        case .deleteSkippingHooks: return try await call(.delete, "/classes/Guarded/" + secrets.object, ["__ignore_hooks": skip])
        case .batchSkippingHooks:
            return try await call(.post, "/batch", [
                "requests": [["method": "POST", "path": .string(endpoint.prefix + "/classes/Guarded"), "body": ["n": 9, "__ignore_hooks": skip]]],
            ])
        }
    }
}

extension CloudCodeMatrixTests.Probe {
    /// Whether the probe asks to skip hooks, so that a forged hook key is tried too.
    var skipsHooks: Bool {
        switch self {
        case .createSkippingHooks, .updateSkippingHooks, .deleteSkippingHooks, .batchSkippingHooks: true
        default: false
        }
    }
}
