import CirrusModel

/// The callers of recently seen session tokens, so that a request with a session does not look up the session and
/// the user's roles again (one recursive query) for a few seconds.
///
/// This process forgets every entry as soon as it commits a change that can alter one: a revoked session, a role
/// written or deleted, a user deleted. Other instances sharing the database forget theirs when the change notice
/// arrives (``ChangeNotice/sessions``, milliseconds later on PostgreSQL), and in any case after
/// ``lifetimeMilliseconds``.
package final class SessionCache: Sendable {
    /// How long an entry is trusted.
    package let lifetimeMilliseconds: Int64
    /// The most entries kept; past it the cache starts again empty.
    package let capacity: Int
    private let entries = Protected<[String: Entry]>([:])

    struct Entry {
        let userId: String
        let roleNames: [String]
        let validUntil: Timestamp
    }

    package init(lifetimeMilliseconds: Int64 = 5_000, capacity: Int = 10_000) {
        self.lifetimeMilliseconds = lifetimeMilliseconds
        self.capacity = capacity
    }

    /// The caller a token stands for, if known and fresh at `now`.
    func caller(_ token: String, base: Caller, at now: Timestamp) -> Caller? {
        guard let entry = entries.withValue({ $0[token] }), now.millisecondsSince1970 < entry.validUntil.millisecondsSince1970 else {
            return nil
        }
        var caller = base
        caller.userId = entry.userId
        caller.roleNames = entry.roleNames
        caller.sessionToken = token
        return caller
    }

    /// Remembers a token's user and roles until the cache lifetime or the session's expiry, whichever comes first.
    func remember(_ token: String, userId: String, roleNames: [String], sessionExpiry: Timestamp?, now: Timestamp) {
        var until = now.millisecondsSince1970 + lifetimeMilliseconds
        if let expiry = sessionExpiry { until = min(until, expiry.millisecondsSince1970) }
        let entry = Entry(userId: userId, roleNames: roleNames, validUntil: Timestamp(millisecondsSince1970: until))
        entries.withValue { cache in
            if cache.count >= capacity { cache.removeAll() }
            cache[token] = entry
        }
    }

    /// Forgets everything.
    package func removeAll() {
        entries.withValue { $0.removeAll() }
    }
}
