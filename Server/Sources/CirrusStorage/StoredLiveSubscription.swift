package import CirrusModel

/// A LiveQuery subscription as the database keeps it, so that the instance a client's socket reaches finds what the
/// client subscribed to through any other instance (and after a restart).
package struct StoredLiveSubscription: Sendable, Hashable {
    package var queryId: String
    package var clientId: String
    package var className: String
    /// The `where` as the client sent it (validated when it subscribed).
    package var condition: JSON
    package var keys: [String]?
    package var returnACL: Bool
    package var sessionToken: String?
    /// When it lapses unless pinged (LeanCloud keeps a subscription 7 days).
    package var expiresAt: Timestamp

    package init(
        queryId: String, clientId: String, className: String, condition: JSON, keys: [String]?, returnACL: Bool, sessionToken: String?,
        expiresAt: Timestamp
    ) {
        self.queryId = queryId
        self.clientId = clientId
        self.className = className
        self.condition = condition
        self.keys = keys
        self.returnACL = returnACL
        self.sessionToken = sessionToken
        self.expiresAt = expiresAt
    }
}
