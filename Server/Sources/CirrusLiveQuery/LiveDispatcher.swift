import CirrusModel
import CirrusServices
package import CirrusStorage
import Logging

/// Turns the change log into the events of this instance's subscriptions: for each record, the subscriptions of its
/// class whose client has a socket here, each judged with its subscriber's read rights (``LiveMatcher``), the events
/// handed to the sockets' bounded queues. Nothing waits on a socket, so a slow subscriber slows no one.
package struct LiveDispatcher: Sendable {
    let service: LiveQueryService

    package init(service: LiveQueryService) {
        self.service = service
    }

    /// Dispatches every record committed from now on, until cancelled.
    package func run() async {
        for await record in service.objects.changes.subscribe() {
            await dispatch(record)
        }
    }

    /// The events of one record.
    package func dispatch(_ record: ChangeRecord) async {
        let targets = service.registry.targets(ofClass: record.className)
        guard !targets.isEmpty else { return }
        let schema = try? await service.objects.schemas.schema(of: record.className)
        let matcher = LiveMatcher(policy: service.objects.policy, visibility: service.objects.visibility)
        for (subscription, sinks) in targets {
            let caller = await subscriber(of: subscription)
            guard let event = matcher.event(for: record, subscription: subscription, caller: caller, schema: schema) else { continue }
            for sink in sinks { sink.deliver(event) }
        }
    }

    /// The subscriber's caller now (its roles may have changed since it subscribed); a session that ended leaves it
    /// the rights of a client without one.
    func subscriber(of subscription: LiveSubscription) async -> Caller {
        guard let token = subscription.sessionToken else { return .anonymous }
        return (try? await service.users.caller(sessionToken: token, base: .anonymous)) ?? .anonymous
    }
}
