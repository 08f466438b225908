package import CirrusModel
package import CirrusServices
package import CirrusStorage
package import Logging

/// LiveQuery: subscriptions made over REST (LeanCloud) or a socket (Parse), and the dispatcher that turns the change
/// log into their events.
///
/// A subscriber acts with its session alone: the master key gives no extra rights (as LeanCloud), so an event never
/// tells a client of an object a query with its session could not find.
///
/// Subscriptions live in the database (so the REST subscribe and the socket may reach different instances, and a
/// restart keeps them); each instance holds in memory only those of the clients whose sockets it holds, loaded when a
/// socket logs in and reloaded when another instance announces a change to them.
///
/// A class: every socket's session holds it, by reference.
package final class LiveQueryService: Sendable {
    package let objects: ObjectService
    package let users: UserService
    package let registry: LiveRegistry
    let logger: Logger
    /// The most subscriptions one client may hold.
    package let perClientLimit = 100
    /// How long a subscription lasts unless pinged (LeanCloud: 7 days).
    package let lifetime: Duration = .seconds(7 * 24 * 3600)

    package init(users: UserService, registry: LiveRegistry = LiveRegistry(), logger: Logger) {
        self.objects = users.objects
        self.users = users
        self.registry = registry
        self.logger = logger
    }

    var store: any StorageAdapter { objects.store }

    /// Subscribes a client to the changes of the objects of `className` that match `where`.
    /// - Parameters:
    ///   - clientId: the client's id (LeanCloud's `id`); a new one is made when `nil`.
    ///   - sessionToken: the subscriber's session; `nil` for a client without one.
    /// - Throws: ``APIError``: an invalid class or condition, a condition LiveQuery cannot follow (sub-queries,
    ///   `$relatedTo`), a class the subscriber may not find or a field it may not read, an invalid session.
    package func subscribe(
        className: String, where json: JSON, keys: [String]?, returnACL: Bool, clientId: String?, sessionToken: String?
    ) async throws -> LiveSubscription {
        if let clientId { try Self.validate(clientId: clientId) }
        let subscription = try await prepare(
            className: className, where: json, keys: keys, returnACL: returnACL, clientId: clientId ?? ObjectID.make(.hex24),
            queryId: ObjectID.make(.hex24) + ObjectID.make(.hex24).suffix(8), sessionToken: sessionToken
        )
        let now = Timestamp.now()
        guard try await store.liveSubscriptions(clientId: subscription.clientId, now: now).count < perClientLimit else {
            throw APIError(.invalidParameter, "A LiveQuery client may hold at most \(perClientLimit) subscriptions; unsubscribe first.")
        }
        try await store.saveLiveSubscription(stored(subscription, now: now), now: now)
        registry.add(subscription)
        await store.announce(.liveSubscriptions(clientId: subscription.clientId))
        return subscription
    }

    /// Subscribes a socket's own client (Parse's LiveQuery subscribes over its socket): kept in this instance's memory
    /// only, as long as the socket, which must be attached.
    /// - Throws: as ``subscribe(className:where:keys:returnACL:clientId:sessionToken:)``, and
    ///   ``APIError/Reason/invalidParameter`` past the client's limit.
    /// - Parameters:
    ///   - watch: Parse's `watch`: events only when one of these top-level fields changed.
    ///   - followsClassDeletion: whether the class's deletion is an event (Bmob's `deleteTable`).
    package func subscribeSocket(
        className: String, where json: JSON, keys: [String]?, clientId: String, queryId: String, sessionToken: String?,
        watch: [String]? = nil, followsClassDeletion: Bool = false
    ) async throws -> LiveSubscription {
        var subscription = try await prepare(
            className: className, where: json, keys: keys, returnACL: false, clientId: clientId, queryId: queryId, sessionToken: sessionToken,
            watch: watch
        )
        subscription.watch = watch
        subscription.followsClassDeletion = followsClassDeletion
        guard registry.count(clientId: clientId) < perClientLimit || registry.contains(queryId: queryId) else {
            throw APIError(.invalidParameter, "A LiveQuery client may hold at most \(perClientLimit) subscriptions; unsubscribe first.")
        }
        registry.add(subscription)
        return subscription
    }

    /// A subscription checked as a query with the subscriber's session would be.
    /// `watch`ed fields are named as a query's sort keys are: each must be a field the subscriber may read.
    func prepare(
        className: String, where json: JSON, keys: [String]?, returnACL: Bool, clientId: String, queryId: String, sessionToken: String?,
        watch: [String]? = nil
    ) async throws -> LiveSubscription {
        try ClassName.validate(className)
        let condition = try Condition(where: json, options: ConditionOptions(limits: objects.configuration.queryLimits))
        guard condition.tableClassNames.isEmpty else {
            throw APIError(.invalidQuery, "LiveQuery does not follow inner queries ($inQuery, $notInQuery, $select, $dontSelect, $relatedTo).")
        }
        if let keys { _ = try KeySelection(parsing: keys.joined(separator: ",")) }
        let caller = try await subscriber(sessionToken)
        let schema = try await objects.schemas.schema(of: className)
        let watched = try (watch ?? []).map { field throws(APIError) in
            guard !field.isEmpty, !field.contains(".") else { throw APIError(.invalidQuery, "watch names top-level fields.") }
            return FieldPath(field: field)
        }
        try await objects.authorizeQuery(className, schema: schema, condition: condition, sorting: watched, caller: caller)
        return LiveSubscription(
            queryId: queryId, clientId: clientId, className: className, query: json, condition: condition, keys: keys, returnACL: returnACL,
            sessionToken: sessionToken
        )
    }

    /// The subscription as the database keeps it.
    func stored(_ subscription: LiveSubscription, now: Timestamp) -> StoredLiveSubscription {
        StoredLiveSubscription(
            queryId: subscription.queryId, clientId: subscription.clientId, className: subscription.className, condition: subscription.query,
            keys: subscription.keys, returnACL: subscription.returnACL, sessionToken: subscription.sessionToken, expiresAt: expiry(from: now)
        )
    }

    func expiry(from now: Timestamp) -> Timestamp {
        Timestamp(millisecondsSince1970: now.millisecondsSince1970 + lifetime.components.seconds * 1_000)
    }

    /// Ends a client's subscription.
    /// - Throws: ``APIError`` ``APIError/Reason/objectNotFound`` when the client has no such subscription.
    package func unsubscribe(queryId: String, clientId: String) async throws {
        guard try await store.deleteLiveSubscription(queryId: queryId, clientId: clientId) else {
            throw APIError(.objectNotFound, "No LiveQuery subscription \(queryId) for this client.")
        }
        registry.remove(queryId: queryId, clientId: clientId)
        await store.announce(.liveSubscriptions(clientId: clientId))
    }

    /// Keeps a client's subscription for another lifetime (LeanCloud's `subscribe/ping`).
    /// - Throws: ``APIError`` ``APIError/Reason/objectNotFound`` when the client has no such subscription.
    package func ping(queryId: String, clientId: String) async throws {
        guard try await store.renewLiveSubscription(queryId: queryId, clientId: clientId, until: expiry(from: Timestamp.now())) else {
            throw APIError(.objectNotFound, "No LiveQuery subscription \(queryId) for this client.")
        }
    }

    /// A socket logged in as `clientId`: it receives the client's events, its subscriptions loaded from the database
    /// when it is the client's first socket here.
    package func attach(_ sink: any LiveSink, clientId: String) async {
        if registry.attach(sink, clientId: clientId) { await reload(clientId) }
    }

    /// What a client missed after `position` (the last event's sequence it saw, or the last position it was told),
    /// for a socket of it that just logged in: its events through the log's last record (`through`), and whether
    /// the log still held every record after `position` (`complete`). The socket drops live events up to `through`,
    /// which the replay covers.
    package func replay(clientId: String, after position: Int64) async -> (events: [LiveEvent], through: Int64, complete: Bool) {
        let history = objects.changes.history(after: position)
        let events = await LiveDispatcher(service: self).events(of: history.records, for: registry.subscriptions(ofClient: clientId))
        return (events, history.through, history.complete)
    }

    /// The position a socket may tell its client to resume after: every event of records up to it has been queued.
    package var position: Int64 { registry.dispatchedPosition }

    /// Tells every logged-in socket that the server is going away, and returns once they have closed.
    package func goAway() async {
        await withDiscardingTaskGroup { group in
            for sink in registry.allSinks { group.addTask { await sink.goAway() } }
        }
    }

    /// The socket logged out or closed.
    package func detach(_ sink: any LiveSink, clientId: String) {
        registry.detach(sink, clientId: clientId)
    }

    /// Another instance changed a client's subscriptions: reloads them if the client has a socket here.
    package func apply(_ notice: ChangeNotice) async {
        guard case .liveSubscriptions(let clientId) = notice, registry.hasSockets(clientId: clientId) else { return }
        await reload(clientId)
    }

    /// Loads a client's subscriptions from the database into the registry; one that no longer decodes is skipped.
    func reload(_ clientId: String) async {
        do {
            let stored = try await store.liveSubscriptions(clientId: clientId, now: Timestamp.now())
            let limits = ConditionOptions(limits: objects.configuration.queryLimits)
            registry.replace(clientId: clientId, with: stored.compactMap { entry in
                guard let condition = try? Condition(where: entry.condition, options: limits) else { return nil }
                return LiveSubscription(
                    queryId: entry.queryId, clientId: entry.clientId, className: entry.className, query: entry.condition, condition: condition,
                    keys: entry.keys, returnACL: entry.returnACL, sessionToken: entry.sessionToken
                )
            })
        } catch {
            logger.warning("a LiveQuery client's subscriptions could not be loaded", metadata: ["error": "\(error)"])
        }
    }

    /// The caller a subscriber acts as: its session's user and roles, never the master key.
    func subscriber(_ sessionToken: String?) async throws -> Caller {
        guard let sessionToken else { return .anonymous }
        return try await users.caller(sessionToken: sessionToken, base: .anonymous)
    }

    /// A client id is what its socket logs in with: printable, at most 256 characters.
    static func validate(clientId: String) throws(APIError) {
        guard !clientId.isEmpty, clientId.utf8.count <= 256, clientId.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value < 0x7F }) else {
            throw APIError(.invalidParameter, "A LiveQuery id is 1 to 256 printable ASCII characters.")
        }
    }
}
