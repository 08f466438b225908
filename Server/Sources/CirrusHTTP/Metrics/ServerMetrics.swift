import CirrusModel
package import CirrusStorage
package import Prometheus
import Synchronization

/// What one server process measures, in Prometheus's text format at `/metrics` (``MetricsEndpoint``): its requests by
/// route, dialect, status and error code, their latencies, the store's operations, and, read when scraped, its
/// connections, realtime sockets and change log.
///
/// Each instance counts its own requests; a Prometheus server scrapes every instance and sums them.
package final class ServerMetrics: StoreObserver, Sendable {
    package let registry = PrometheusCollectorRegistry()
    /// What `Authorization: Bearer <token>` a scrape must carry.
    let token: String
    private let samplers = Mutex<[@Sendable (PrometheusCollectorRegistry) -> Void]>([])

    static let requestBuckets: [Duration] = [
        .milliseconds(1), .milliseconds(2), .milliseconds(5), .milliseconds(10), .milliseconds(25), .milliseconds(50),
        .milliseconds(100), .milliseconds(250), .milliseconds(500), .seconds(1), .seconds(2.5), .seconds(5), .seconds(10), .seconds(30),
    ]
    static let storeBuckets: [Duration] = [
        .microseconds(100), .microseconds(250), .microseconds(500), .milliseconds(1), .milliseconds(2.5), .milliseconds(5),
        .milliseconds(10), .milliseconds(25), .milliseconds(50), .milliseconds(100), .milliseconds(250), .seconds(1), .seconds(5),
    ]

    static var requests: MetricNameDescriptor { named("cirrus_http_requests_total", help: "Requests answered, by endpoint, method, dialect, HTTP status and the dialect's error code.") }
    static var requestDuration: MetricNameDescriptor { named("cirrus_http_request_duration_seconds", help: "Time from a request's head to its reply, by endpoint and method.") }
    static var storeInFlight: MetricNameDescriptor { named("cirrus_store_operations_in_flight", help: "Store operations running now, each on a connection of the store's pools.") }
    static var storeDuration: MetricNameDescriptor { named(
        "cirrus_store_operation_duration_seconds", help: "Store operations by kind: reads (queries), lookups (rows by key) and transactions (writes).") }

    /// A metric by its whole name (which already ends in its unit).
    static func named(_ name: String, help: String) -> MetricNameDescriptor {
        MetricNameDescriptor(metricName: name, unitName: "", helpText: help)
    }

    package init(token: String) {
        self.token = token
        for operation in StoreOperation.allCases {
            _ = inFlight(operation)
            _ = storeLatency(operation)
        }
    }

    /// Counts one answered request.
    /// - Parameters:
    ///   - route: the endpoint's path pattern (`classes/:className/:objectId`), or what served the request (`files`,
    ///     `dashboard`, …): never the request's own path, so the label has a bounded set of values.
    func request(route: String, method: String, dialect: Dialect?, status: Int, code: Int?, duration: Duration) {
        registry.makeCounter(
            descriptor: Self.requests,
            labels: [("route", route), ("method", method), ("dialect", dialect?.rawValue ?? ""), ("status", String(status)), ("code", code.map(String.init) ?? "")]
        ).increment()
        registry.makeDurationHistogram(descriptor: Self.requestDuration, labels: [("route", route), ("method", method)], buckets: Self.requestBuckets)
            .record(duration)
    }

    package func started(_ operation: StoreOperation) {
        inFlight(operation).increment()
    }

    package func finished(_ operation: StoreOperation, after duration: Duration) {
        inFlight(operation).decrement()
        storeLatency(operation).record(duration)
    }

    private func inFlight(_ operation: StoreOperation) -> Gauge {
        registry.makeGauge(descriptor: Self.storeInFlight, labels: [("operation", operation.rawValue)])
    }

    private func storeLatency(_ operation: StoreOperation) -> DurationHistogram {
        registry.makeDurationHistogram(descriptor: Self.storeDuration, labels: [("operation", operation.rawValue)], buckets: Self.storeBuckets)
    }

    /// Adds a reading taken at each scrape (a count kept elsewhere, written into a gauge of `registry`).
    package func sample(_ sampler: @escaping @Sendable (PrometheusCollectorRegistry) -> Void) {
        samplers.withLock { $0.append(sampler) }
    }

    /// Samples the gauges read at scrape time, each with its name and help, from `value`.
    package func gauge(_ name: String, help: String, _ value: @escaping @Sendable () -> Double) {
        sample { registry in registry.makeGauge(descriptor: Self.named(name, help: help)).set(value()) }
    }

    /// The metrics in Prometheus's text format.
    package func text() -> [UInt8] {
        for sampler in samplers.withLock({ $0 }) { sampler(registry) }
        var buffer: [UInt8] = []
        registry.emit(into: &buffer)
        return buffer
    }
}
