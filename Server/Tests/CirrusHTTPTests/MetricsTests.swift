@testable import CirrusHTTP
import CirrusModel
import CirrusServer
import CirrusTesting
import Logging
import Testing

/// `/metrics` in Prometheus's text format, and the id every request carries.
@Suite("Metrics and request ids")
struct MetricsTests {
    static let token = "metrics-token-42"

    static func scrape(_ client: TestClient, token: String? = MetricsTests.token) async throws -> TestReply {
        try await client.browse(.get, "/metrics", headers: token.map { ["Authorization": "Bearer " + $0] } ?? [:])
    }

    /// The value of the sample `name{labels}` in a scrape, 0 when it is not there.
    static func sample(_ text: String, _ name: String, _ labels: [String: String] = [:]) -> Double {
        var total = 0.0
        for line in text.split(separator: "\n") where line.hasPrefix(name + "{") || line.hasPrefix(name + " ") {
            let labelText = line.split(separator: "}").first.map(String.init) ?? ""
            guard labels.allSatisfy({ labelText.contains("\($0.key)=\"\($0.value)\"") }) else { continue }
            total += Double(line.split(separator: " ").last ?? "") ?? 0
        }
        return total
    }

    @Test("with a token configured, requests are counted by route, method, dialect, status and code, with their latency and the store's operations")
    func counts() async throws {
        try await TestServer.with(configure: { $0.metricsToken = Self.token }) { client in
            let id = try await client.create(.leancloud, "Metered", ["n": 1])
            _ = try await client.fetch(.leancloud, "Metered", id)
            _ = try await client.fetch(.parse, "Metered", id)
            _ = try await client.request(.leancloud, .get, "/classes/Metered")
            _ = try await client.request(.leancloud, .get, "/classes/Metered/missing", auth: .headers(["X-LC-Id": TestServer.keys.appId, "X-LC-Key": "wrong"]))
            let scrape = try await Self.scrape(client)
            #expect(scrape.status == 200)
            #expect(scrape.header("Content-Type")?.hasPrefix("text/plain; version=0.0.4") == true)
            let text = scrape.bodyText
            let route = "classes/:className/:objectId"
            #expect(Self.sample(text, "cirrus_http_requests_total", ["route": "classes/:className", "method": "POST", "dialect": "leancloud", "status": "201"]) == 1)
            #expect(Self.sample(text, "cirrus_http_requests_total", ["route": route, "method": "GET", "dialect": "leancloud", "status": "200"]) == 1)
            #expect(Self.sample(text, "cirrus_http_requests_total", ["route": route, "method": "GET", "dialect": "parse", "status": "200"]) == 1)
            #expect(Self.sample(text, "cirrus_http_requests_total", ["route": route, "status": "401", "code": "401"]) == 1)
            #expect(Self.sample(text, "cirrus_http_request_duration_seconds_count", ["route": route, "method": "GET"]) == 3)
            #expect(Self.sample(text, "cirrus_store_operation_duration_seconds_count", ["operation": "transaction"]) >= 1)
            #expect(Self.sample(text, "cirrus_store_operation_duration_seconds_count", ["operation": "lookup"]) >= 2)
            #expect(Self.sample(text, "cirrus_store_operation_duration_seconds_count", ["operation": "read"]) >= 1)
            #expect(text.contains("cirrus_store_operations_in_flight{operation=\"read\"}"))
            // The server's own loops (jobs, pushes, after-hooks) read too: one may be running at a scrape, none for long.
            var inFlight = Self.sample(text, "cirrus_store_operations_in_flight", ["operation": "read"])
            for _ in 0..<50 where inFlight != 0 {
                try await Task.sleep(for: .milliseconds(100))
                inFlight = Self.sample(try await Self.scrape(client).bodyText, "cirrus_store_operations_in_flight", ["operation": "read"])
            }
            #expect(inFlight == 0)
            #expect(text.contains("cirrus_change_log_sequence "))
            #expect(text.contains("cirrus_change_log_lag_seconds "))
            #expect(text.contains("# HELP cirrus_http_requests_total "))
            // No label holds a request's own path or objectId.
            #expect(!text.contains(id))
        }
    }

    @Test("a scrape without the token, or with another, is refused and learns nothing", arguments: [nil, "wrong", Self.token + "x"] as [String?])
    func refused(_ token: String?) async throws {
        try await TestServer.with(configure: { $0.metricsToken = Self.token }) { client in
            let reply = try await Self.scrape(client, token: token)
            #expect(reply.status == 401)
            #expect(reply.header("WWW-Authenticate")?.hasPrefix("Bearer") == true)
            #expect(!reply.bodyText.contains("cirrus_"))
        }
    }

    @Test("without a token the server serves no metrics")
    func off() async throws {
        try await TestServer.with { client in
            let reply = try await Self.scrape(client)
            #expect(reply.status == 404)
            #expect(!reply.bodyText.contains("cirrus_"))
        }
    }

    @Test("every reply carries an X-Request-Id: the one the client sent when acceptable, else one of its own")
    func requestIds() async throws {
        try await TestServer.with { client in
            let given = try await client.request(.leancloud, .get, "/classes/Anything", headers: ["X-Request-Id": "client-7"])
            #expect(given.header("X-Request-Id") == "client-7")
            var made: Set<String> = []
            for header in ["", String(repeating: "x", count: 129), "has space", "tab\there"] {
                let reply = try await client.request(.leancloud, .get, "/classes/Anything", headers: header.isEmpty ? [:] : ["X-Request-Id": header])
                let id = try #require(reply.header("X-Request-Id"))
                #expect(id != header)
                made.insert(id)
            }
            #expect(made.count == 4)
            let error = try await client.request(.leancloud, .get, "/nowhere")
            #expect(error.header("X-Request-Id") != nil)
        }
    }

    @Test("log lines written while a request is answered carry its id")
    func logMetadata() {
        #expect(RequestID.metadataProvider.get().isEmpty)
        RequestID.$current.withValue("abc-1") {
            #expect(RequestID.metadataProvider.get()["request"] == "abc-1")
        }
    }
}
