import CirrusModel
package import CirrusStorage

/// Where a client's events go: a WebSocket logged in with the client's id. `deliver` never waits: a sink queues what
/// it cannot send yet, up to its bound, and past it drops the connection (the client re-subscribes when it reconnects).
package protocol LiveSink: AnyObject, Sendable {
    func deliver(_ event: LiveEvent)
    /// The server is shutting down: tells the client to reconnect (to another instance) and returns once closed.
    func goAway() async
}

/// The live subscriptions of the clients whose sockets this instance holds, by class (and by the equality their
/// condition requires, ``LiveEquality``) and by client, and the sockets.
/// A client's subscriptions are here only while one of its sockets is (the database keeps them: ``LiveQueryService``
/// loads them when a socket logs in), so memory follows the sockets.
package final class LiveRegistry: Sendable {
    private let lock = Lock()
    nonisolated(unsafe) private var subscriptions: [String: LiveSubscription] = [:]
    nonisolated(unsafe) private var byClass: [String: ClassIndex] = [:]
    nonisolated(unsafe) private var byClient: [String: Set<String>] = [:]
    nonisolated(unsafe) private var sinks: [String: [ObjectIdentifier: any LiveSink]] = [:]
    nonisolated(unsafe) private var dispatched: Int64 = 0

    package init() {}

    /// Adds (or replaces) a subscription of a client with a socket here; `false`, adding nothing, when it has none.
    @discardableResult
    package func add(_ subscription: LiveSubscription) -> Bool {
        lock.withLock {
            guard sinks[subscription.clientId] != nil else { return false }
            insert(subscription)
            return true
        }
    }

    /// Makes `list` the subscriptions of a client with a socket here.
    package func replace(clientId: String, with list: [LiveSubscription]) {
        lock.withLock {
            removeAll(of: clientId)
            guard sinks[clientId] != nil else { return }
            for subscription in list where subscription.clientId == clientId { insert(subscription) }
        }
    }

    /// Removes a subscription of a client.
    package func remove(queryId: String, clientId: String) {
        lock.withLock {
            guard let subscription = subscriptions[queryId], subscription.clientId == clientId else { return }
            drop(subscription)
        }
    }

    /// The subscriptions a record may concern whose client has a socket here, each with its sockets: those of the
    /// record's class whose equality (``LiveEquality``) the object before or after the write offers, and those
    /// without one (all of the class for its deletion).
    package func targets(of record: ChangeRecord) -> [(subscription: LiveSubscription, sinks: [any LiveSink])] {
        lock.withLock {
            guard let index = byClass[record.className] else { return [] }
            return index.candidates(for: record).compactMap { queryId in
                guard let subscription = subscriptions[queryId], let clientSinks = sinks[subscription.clientId], !clientSinks.isEmpty else { return nil }
                return (subscription, Array(clientSinks.values))
            }
        }
    }

    /// The subscriptions of a client with a socket here.
    package func subscriptions(ofClient clientId: String) -> [LiveSubscription] {
        lock.withLock { (byClient[clientId] ?? []).compactMap { subscriptions[$0] } }
    }

    /// The change-log position through which the dispatcher has handed every event to the sinks: a reply queued on a
    /// socket after reading it follows every event of the records up to it.
    package var dispatchedPosition: Int64 {
        get { lock.withLock { dispatched } }
        set { lock.withLock { dispatched = max(dispatched, newValue) } }
    }

    /// Sends the client's events to `sink` until ``detach(_:clientId:)``; `true` when it is the client's first socket here.
    @discardableResult
    package func attach(_ sink: any LiveSink, clientId: String) -> Bool {
        lock.withLock {
            let first = sinks[clientId] == nil
            sinks[clientId, default: [:]][ObjectIdentifier(sink)] = sink
            return first
        }
    }

    /// Stops sending to `sink`; the client's last socket takes its subscriptions with it.
    package func detach(_ sink: any LiveSink, clientId: String) {
        lock.withLock {
            sinks[clientId]?[ObjectIdentifier(sink)] = nil
            if sinks[clientId]?.isEmpty == true {
                sinks[clientId] = nil
                removeAll(of: clientId)
            }
        }
    }

    /// Every socket attached to a client, once each.
    package var allSinks: [any LiveSink] {
        lock.withLock {
            var seen: Set<ObjectIdentifier> = []
            return sinks.values.flatMap(\.self).compactMap { seen.insert($0.key).inserted ? $0.value : nil }
        }
    }

    /// How many subscriptions a client has here.
    package func count(clientId: String) -> Int {
        lock.withLock { byClient[clientId]?.count ?? 0 }
    }

    /// Whether a subscription is here.
    package func contains(queryId: String) -> Bool {
        lock.withLock { subscriptions[queryId] != nil }
    }

    /// Whether the client has a socket here.
    package func hasSockets(clientId: String) -> Bool {
        lock.withLock { sinks[clientId] != nil }
    }

    /// How many subscriptions and sockets there are.
    package var counts: (subscriptions: Int, sockets: Int) {
        lock.withLock { (subscriptions.count, sinks.values.reduce(0) { $0 + $1.count }) }
    }

    private func insert(_ subscription: LiveSubscription) {
        if let old = subscriptions[subscription.queryId] { drop(old) }
        subscriptions[subscription.queryId] = subscription
        byClass[subscription.className, default: ClassIndex()].insert(subscription)
        byClient[subscription.clientId, default: []].insert(subscription.queryId)
    }

    private func drop(_ subscription: LiveSubscription) {
        subscriptions[subscription.queryId] = nil
        byClass[subscription.className]?.remove(subscription)
        if byClass[subscription.className]?.isEmpty == true { byClass[subscription.className] = nil }
        byClient[subscription.clientId]?.remove(subscription.queryId)
        if byClient[subscription.clientId]?.isEmpty == true { byClient[subscription.clientId] = nil }
    }

    private func removeAll(of clientId: String) {
        for queryId in byClient[clientId] ?? [] {
            if let subscription = subscriptions[queryId] { drop(subscription) }
        }
    }
}

/// The subscriptions of one class: filed under their equality's keys (``LiveEquality``), or among those a record
/// always reaches.
private struct ClassIndex {
    /// The subscriptions without an equality.
    var unindexed: Set<String> = []
    /// The subscriptions with one, by field and key.
    var byField: [String: [LiveEquality.Key: Set<String>]] = [:]

    var isEmpty: Bool { unindexed.isEmpty && byField.isEmpty }

    mutating func insert(_ subscription: LiveSubscription) {
        guard let equality = subscription.equality else {
            unindexed.insert(subscription.queryId)
            return
        }
        for key in equality.keys { byField[equality.field, default: [:]][key, default: []].insert(subscription.queryId) }
    }

    mutating func remove(_ subscription: LiveSubscription) {
        guard let equality = subscription.equality else {
            unindexed.remove(subscription.queryId)
            return
        }
        for key in equality.keys {
            byField[equality.field]?[key]?.remove(subscription.queryId)
            if byField[equality.field]?[key]?.isEmpty == true { byField[equality.field]?[key] = nil }
        }
        if byField[equality.field]?.isEmpty == true { byField[equality.field] = nil }
    }

    /// The subscriptions that `record` may concern.
    func candidates(for record: ChangeRecord) -> Set<String> {
        var found: [Set<String>] = unindexed.isEmpty ? [] : [unindexed]
        let objects = [record.before, record.after].compactMap(\.self)
        for (field, byKey) in byField {
            guard record.kind != .classDeleted else {
                found += byKey.values
                continue
            }
            let keys = Set(objects.flatMap { LiveEquality.keys(of: $0, field: field) })
            found += keys.compactMap { byKey[$0] }
        }
        // One set (the common case: one key, or no equality) is taken as it is, not copied.
        guard found.count > 1 else { return found.first ?? [] }
        return found.reduce(into: []) { $0.formUnion($1) }
    }
}
