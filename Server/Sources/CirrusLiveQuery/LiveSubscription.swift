package import CirrusModel

/// A live query: a class and a condition whose matching objects' changes a client receives as events.
package struct LiveSubscription: Sendable, Hashable {
    /// The subscription's own id, which the client unsubscribes with (LeanCloud's `query_id`).
    package var queryId: String
    /// The client it belongs to: the `id` of LeanCloud's subscribe, which its WebSocket logs in with as its
    /// `installationId`; events go to the sockets logged in with it.
    package var clientId: String
    package var className: String
    /// The `where` as the client sent it, kept with the subscription.
    package var query: JSON
    package var condition: Condition {
        didSet { equality = LiveEquality(condition) }
    }
    /// The top-level equality ``condition`` requires, if the registry can file the subscription under it.
    package private(set) var equality: LiveEquality?
    /// The fields the events carry besides the built-in ones, as the client sent them (`a,b.c`, `-d`); `nil` for all.
    package var keys: [String]? {
        didSet { selection = Self.selection(keys) }
    }
    /// ``keys`` parsed, as a query's `keys`.
    package private(set) var selection: KeySelection?
    /// Whether the events' objects carry their ACL.
    package var returnACL: Bool
    /// The session of the subscriber, whose read rights every event passes; `nil` for a client without one.
    package var sessionToken: String?
    /// Parse's `watch`: create, update, enter and leave events only when one of these fields changed; `nil` for any.
    package var watch: [String]?
    /// Whether the subscription hears of its class's deletion (Bmob's `deleteTable`); LeanCloud's and Parse's do not.
    package var followsClassDeletion = false

    package init(
        queryId: String, clientId: String, className: String, query: JSON = [:], condition: Condition, keys: [String]?, returnACL: Bool,
        sessionToken: String?
    ) {
        self.queryId = queryId
        self.clientId = clientId
        self.className = className
        self.query = query
        self.condition = condition
        equality = LiveEquality(condition)
        self.keys = keys
        selection = Self.selection(keys)
        self.returnACL = returnACL
        self.sessionToken = sessionToken
    }

    /// The selection of `keys`; `nil` for none or for keys that do not parse (``LiveQueryService`` refuses those).
    static func selection(_ keys: [String]?) -> KeySelection? {
        keys.flatMap { try? KeySelection(parsing: $0.joined(separator: ",")) }
    }
}
