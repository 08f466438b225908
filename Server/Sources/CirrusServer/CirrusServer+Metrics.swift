import CirrusHTTP
import CirrusLiveQuery
import CirrusStorage

extension CirrusServer {
    /// The server's metrics when a token is configured: the store tells them about its operations, and each scrape reads
    /// the open connections, the realtime sockets and subscriptions, and the change log.
    static func metrics(
        _ configuration: ServerConfiguration, store: any StorageAdapter, connections: ConnectionLimiter, liveQuery: LiveQueryService?,
        changes: ChangeLog
    ) -> ServerMetrics? {
        guard let token = configuration.metricsToken, !token.isEmpty else { return nil }
        let metrics = ServerMetrics(token: token)
        store.observation?.set(metrics)
        metrics.gauge("cirrus_http_connections", help: "Open connections, the realtime sockets among them (--max-connections bounds them).") {
            Double(connections.count)
        }
        if let registry = liveQuery?.registry {
            metrics.gauge("cirrus_realtime_sockets", help: "LiveQuery sockets logged in on this instance.") { Double(registry.counts.sockets) }
            metrics.gauge("cirrus_livequery_subscriptions", help: "LiveQuery subscriptions of the clients whose sockets this instance holds.") {
                Double(registry.counts.subscriptions)
            }
        }
        metrics.gauge("cirrus_change_log_sequence", help: "The sequence number of the last change this instance's log received.") {
            Double(changes.lastSequenceNumber)
        }
        metrics.gauge("cirrus_change_log_lag_seconds", help: "How long after its write the last change reached this instance's log.") {
            Double(changes.lastLag.components.seconds) + Double(changes.lastLag.components.attoseconds) / 1e18
        }
        metrics.gauge("cirrus_change_log_subscribers", help: "Readers of the change log in this process (LiveQuery, console views).") {
            Double(changes.subscriberCount)
        }
        metrics.gauge("cirrus_change_log_dropped", help: "Changes readers lost by falling behind, since the start.") {
            Double(changes.droppedCount)
        }
        return metrics
    }
}
