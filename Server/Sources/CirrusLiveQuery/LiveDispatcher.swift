import CirrusModel
import CirrusServices
package import CirrusStorage
import Logging

/// Turns the change log into the events of this instance's subscriptions: for each record, the subscriptions it may
/// concern (``LiveRegistry/targets(of:)``) whose client has a socket here, each judged with its subscriber's read
/// rights (``LiveMatcher``), the events handed to the sockets' bounded queues. Nothing waits on a socket, so a slow
/// subscriber slows no one.
///
/// A record's subscriptions are judged in chunks on every core; the next record starts once every event of this one
/// is queued, so each client gets its events in the log's order.
package struct LiveDispatcher: Sendable {
    package let service: LiveQueryService
    /// How many subscriptions one task judges: a record with more is judged by several at once.
    package var chunkSize = 256

    package init(service: LiveQueryService) {
        self.service = service
    }

    /// Dispatches every record committed from now on, until cancelled; keeps the log's recent records for clients that
    /// resume (``LiveQueryService/replay(clientId:after:)``) when `history` is given.
    package func run(history: (limit: Int, retention: Duration)? = nil) async {
        let changes = service.objects.changes
        if let history { changes.keepHistory(limit: history.limit, retention: history.retention) }
        // Read before subscribing: a record in between is counted as not yet dispatched, never the reverse.
        service.registry.dispatchedPosition = changes.lastSequenceNumber
        for await record in changes.subscribe() {
            await dispatch(record)
            service.registry.dispatchedPosition = record.sequence
        }
    }

    /// The events of one record, every one queued when it returns.
    package func dispatch(_ record: ChangeRecord) async {
        let targets = service.registry.targets(of: record)
        guard !targets.isEmpty else { return }
        let judge = await Judge(record: record, service: service)
        guard targets.count > chunkSize else { return await judge.deliver(targets[...]) }
        await withDiscardingTaskGroup { group in
            for start in stride(from: 0, to: targets.count, by: chunkSize) {
                let chunk = targets[start..<min(start + chunkSize, targets.count)]
                group.addTask { await judge.deliver(chunk) }
            }
        }
    }

    /// The events of `records` for the subscriptions of one client, in order.
    func events(of records: [ChangeRecord], for subscriptions: [LiveSubscription]) async -> [LiveEvent] {
        var events: [LiveEvent] = []
        let callers = Callers(service: service)
        for record in records {
            let interested = subscriptions.filter { $0.className == record.className }
            guard !interested.isEmpty else { continue }
            let judge = await Judge(record: record, service: service, callers: callers)
            for subscription in interested {
                if let event = await judge.event(for: subscription) { events.append(event) }
            }
        }
        return events
    }

    /// One record judged for the subscriptions it may concern, the objects its events show made once per way of
    /// showing them (``LiveRecord``).
    struct Judge: Sendable {
        let record: LiveRecord
        let matcher: LiveMatcher
        let callers: Callers

        init(record: ChangeRecord, service: LiveQueryService, callers: Callers? = nil) async {
            let schema = try? await service.objects.schemas.schema(of: record.className)
            self.record = LiveRecord(record, schema: schema, visibility: service.objects.visibility)
            matcher = LiveMatcher(policy: service.objects.policy, visibility: service.objects.visibility)
            self.callers = callers ?? Callers(service: service)
        }

        /// The subscription's event, with its subscriber's rights now (its roles may have changed since it
        /// subscribed).
        func event(for subscription: LiveSubscription) async -> LiveEvent? {
            matcher.event(for: record, subscription: subscription, caller: await callers.caller(subscription.sessionToken))
        }

        /// Queues the events of `targets` on their sockets.
        func deliver(_ targets: ArraySlice<(subscription: LiveSubscription, sinks: [any LiveSink])>) async {
            for (subscription, sinks) in targets {
                guard let event = await event(for: subscription) else { continue }
                for sink in sinks { sink.deliver(event) }
            }
        }
    }

    /// The subscribers' callers, each session looked up once for a record (or a replay's records): its user and
    /// roles now; a session that ended leaves the rights of a client without one.
    final class Callers: Sendable {
        let service: LiveQueryService
        private let lock = Lock()
        nonisolated(unsafe) private var known: [String: Caller] = [:]

        init(service: LiveQueryService) {
            self.service = service
        }

        func caller(_ sessionToken: String?) async -> Caller {
            guard let sessionToken else { return .anonymous }
            if let caller = lock.withLock({ known[sessionToken] }) { return caller }
            let caller = (try? await service.subscriber(sessionToken)) ?? .anonymous
            lock.withLock { known[sessionToken] = caller }
            return caller
        }
    }
}
