import CirrusModel
import CirrusServices
package import CirrusStorage
import Logging

/// Turns the change log into the events of this instance's subscriptions: for each record, the subscriptions of its
/// class whose client has a socket here, each judged with its subscriber's read rights (``LiveMatcher``), the events
/// handed to the sockets' bounded queues. Nothing waits on a socket, so a slow subscriber slows no one.
package struct LiveDispatcher: Sendable {
    package let service: LiveQueryService

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

    /// The events of one record.
    package func dispatch(_ record: ChangeRecord) async {
        let targets = service.registry.targets(ofClass: record.className)
        guard !targets.isEmpty else { return }
        let judge = await Judge(record: record, service: service)
        for (subscription, sinks) in targets {
            guard let event = await judge.event(for: subscription) else { continue }
            for sink in sinks { sink.deliver(event) }
        }
    }

    /// The events of `records` for the subscriptions of one client, in order.
    func events(of records: [ChangeRecord], for subscriptions: [LiveSubscription]) async -> [LiveEvent] {
        var events: [LiveEvent] = []
        for record in records {
            let interested = subscriptions.filter { $0.className == record.className }
            guard !interested.isEmpty else { continue }
            let judge = await Judge(record: record, service: service)
            for subscription in interested {
                if let event = await judge.event(for: subscription) { events.append(event) }
            }
        }
        return events
    }

    /// One record judged for each subscription of its class.
    struct Judge {
        let record: ChangeRecord
        let service: LiveQueryService
        let schema: ClassSchema?
        let matcher: LiveMatcher

        init(record: ChangeRecord, service: LiveQueryService) async {
            self.record = record
            self.service = service
            schema = try? await service.objects.schemas.schema(of: record.className)
            matcher = LiveMatcher(policy: service.objects.policy, visibility: service.objects.visibility)
        }

        /// The subscription's event, with its subscriber's rights now (its roles may have changed since it
        /// subscribed); a session that ended leaves it the rights of a client without one.
        func event(for subscription: LiveSubscription) async -> LiveEvent? {
            let caller = (try? await service.subscriber(subscription.sessionToken)) ?? .anonymous
            return matcher.event(for: record, subscription: subscription, caller: caller, schema: schema)
        }
    }
}
