package import CirrusModel

/// Where a client's events go: a WebSocket logged in with the client's id. `deliver` never waits: a sink queues what
/// it cannot send yet, up to its bound, and past it drops the connection (the client re-subscribes when it reconnects).
package protocol LiveSink: AnyObject, Sendable {
    func deliver(_ event: LiveEvent)
}

/// This instance's live subscriptions, by class and by client, and the sockets logged in for each client.
package final class LiveRegistry: Sendable {
    private let lock = Lock()
    nonisolated(unsafe) private var subscriptions: [String: LiveSubscription] = [:]
    nonisolated(unsafe) private var byClass: [String: Set<String>] = [:]
    nonisolated(unsafe) private var byClient: [String: Set<String>] = [:]
    nonisolated(unsafe) private var sinks: [String: [ObjectIdentifier: any LiveSink]] = [:]
    /// The most subscriptions one client may hold, and the most this instance keeps.
    package let perClientLimit: Int
    package let totalLimit: Int

    package init(perClientLimit: Int = 100, totalLimit: Int = 100_000) {
        self.perClientLimit = perClientLimit
        self.totalLimit = totalLimit
    }

    /// Adds a subscription.
    /// - Throws: ``APIError`` when the client or the instance holds the most subscriptions allowed.
    package func add(_ subscription: LiveSubscription) throws(APIError) {
        let refusal: APIError? = lock.withLock {
            guard (byClient[subscription.clientId]?.count ?? 0) < perClientLimit else {
                return APIError(.invalidParameter, "A LiveQuery client may hold at most \(perClientLimit) subscriptions; unsubscribe first.")
            }
            guard subscriptions.count < totalLimit else { return APIError(.serverBusy, "The server holds its most LiveQuery subscriptions.") }
            subscriptions[subscription.queryId] = subscription
            byClass[subscription.className, default: []].insert(subscription.queryId)
            byClient[subscription.clientId, default: []].insert(subscription.queryId)
            return nil
        }
        if let refusal { throw refusal }
    }

    /// Removes a subscription of a client; `false` when that client has no such subscription.
    @discardableResult
    package func remove(queryId: String, clientId: String) -> Bool {
        lock.withLock {
            guard let subscription = subscriptions[queryId], subscription.clientId == clientId else { return false }
            subscriptions[queryId] = nil
            byClass[subscription.className]?.remove(queryId)
            if byClass[subscription.className]?.isEmpty == true { byClass[subscription.className] = nil }
            byClient[clientId]?.remove(queryId)
            if byClient[clientId]?.isEmpty == true { byClient[clientId] = nil }
            return true
        }
    }

    /// Whether the client holds this subscription.
    package func contains(queryId: String, clientId: String) -> Bool {
        lock.withLock { subscriptions[queryId]?.clientId == clientId }
    }

    /// The subscriptions of a class whose client has a socket here, each with its sockets.
    package func targets(ofClass className: String) -> [(subscription: LiveSubscription, sinks: [any LiveSink])] {
        lock.withLock {
            (byClass[className] ?? []).compactMap { queryId in
                guard let subscription = subscriptions[queryId], let clientSinks = sinks[subscription.clientId], !clientSinks.isEmpty else { return nil }
                return (subscription, Array(clientSinks.values))
            }
        }
    }

    /// Sends the client's events to `sink` until ``detach(_:clientId:)``.
    package func attach(_ sink: any LiveSink, clientId: String) {
        lock.withLock { sinks[clientId, default: [:]][ObjectIdentifier(sink)] = sink }
    }

    package func detach(_ sink: any LiveSink, clientId: String) {
        lock.withLock {
            sinks[clientId]?[ObjectIdentifier(sink)] = nil
            if sinks[clientId]?.isEmpty == true { sinks[clientId] = nil }
        }
    }

    /// How many subscriptions and sockets there are.
    package var counts: (subscriptions: Int, sockets: Int) {
        lock.withLock { (subscriptions.count, sinks.values.reduce(0) { $0 + $1.count }) }
    }
}
