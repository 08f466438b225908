package import CirrusModel
package import CirrusServices
import CirrusStorage
package import Logging

/// LiveQuery: subscriptions made over REST (LeanCloud) or a socket (Parse), and the dispatcher that turns the change
/// log into their events.
///
/// A subscriber acts with its session alone: the master key gives no extra rights (as LeanCloud), so an event never
/// tells a client of an object a query with its session could not find.
package struct LiveQueryService: Sendable {
    package let objects: ObjectService
    package let users: UserService
    package let registry: LiveRegistry
    let logger: Logger

    package init(users: UserService, registry: LiveRegistry = LiveRegistry(), logger: Logger) {
        self.objects = users.objects
        self.users = users
        self.registry = registry
        self.logger = logger
    }

    /// Subscribes a client to the changes of the objects of `className` that match `where`.
    /// - Parameters:
    ///   - clientId: the client's id (LeanCloud's `id`); a new one is made when `nil`.
    ///   - sessionToken: the subscriber's session; `nil` for a client without one.
    /// - Throws: ``APIError``: an invalid class or condition, a condition LiveQuery cannot follow (sub-queries,
    ///   `$relatedTo`), a class the subscriber may not find or a field it may not read, an invalid session.
    package func subscribe(
        className: String, where json: JSON, keys: [String]?, returnACL: Bool, clientId: String?, sessionToken: String?
    ) async throws -> LiveSubscription {
        try ClassName.validate(className)
        let condition = try Condition(where: json, options: ConditionOptions(limits: objects.configuration.queryLimits))
        guard condition.tableClassNames.isEmpty else {
            throw APIError(.invalidQuery, "LiveQuery does not follow inner queries ($inQuery, $notInQuery, $select, $dontSelect, $relatedTo).")
        }
        let caller = try await subscriber(sessionToken)
        let schema = try await objects.schemas.schema(of: className)
        try await objects.authorizeQuery(className, schema: schema, condition: condition, sorting: [], caller: caller)
        if let clientId { try Self.validate(clientId: clientId) }
        let subscription = LiveSubscription(
            queryId: ObjectID.make(.hex24) + ObjectID.make(.hex24).suffix(8), clientId: clientId ?? ObjectID.make(.hex24), className: className,
            condition: condition, keys: keys, returnACL: returnACL, sessionToken: sessionToken
        )
        try registry.add(subscription)
        return subscription
    }

    /// Ends a client's subscription.
    /// - Throws: ``APIError`` ``APIError/Reason/objectNotFound`` when the client has no such subscription.
    package func unsubscribe(queryId: String, clientId: String) throws(APIError) {
        guard registry.remove(queryId: queryId, clientId: clientId) else {
            throw APIError(.objectNotFound, "No LiveQuery subscription \(queryId) for this client.")
        }
    }

    /// Confirms a client's subscription is live (LeanCloud's `subscribe/ping`).
    package func ping(queryId: String, clientId: String) throws(APIError) {
        guard registry.contains(queryId: queryId, clientId: clientId) else {
            throw APIError(.objectNotFound, "No LiveQuery subscription \(queryId) for this client.")
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
