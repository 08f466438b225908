/// A change one instance tells the others that share its database about, so that they drop what they cached. (Object
/// changes travel in the ``ChangeLog``, which every instance reads.)
package enum ChangeNotice: Sendable, Hashable {
    /// A class was created, changed (fields, permissions, options) or dropped.
    case schema(className: String)
    /// Sessions were revoked, roles written or users deleted: cached callers may be wrong.
    case sessions
    /// A client's LiveQuery subscriptions changed: the instance holding its socket reloads them.
    case liveSubscriptions(clientId: String)
    /// Parse webhooks were registered, changed or removed.
    case webhooks
    /// Notices may have been missed (the listening connection was lost): drop everything cached.
    case everything
}
