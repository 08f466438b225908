package import CirrusModel
import CirrusStorage

/// Who may use the web console (`/dashboard`) besides the master key, and how sign-in attempts are limited.
///
/// An administrator is a user in the role ``adminRole`` (read-write) or ``viewerRole`` (read-only), held directly or
/// inherited. The role is looked up again on every request the console makes (through the session cache), so taking a
/// user out of the role, or revoking the session, ends its console session too.
package struct DashboardService: Sendable {
    /// What a signed-in administrator may do.
    package enum Role: String, Sendable, Hashable {
        /// Reads and writes everything, as the master key.
        case admin
        /// Reads everything, writes nothing.
        case viewer
    }

    /// The role whose users administer the app through the console.
    package static let adminRole = "DashboardAdmin"
    /// The role whose users may look but not change.
    package static let viewerRole = "DashboardViewer"

    /// Sign-in attempts per client address, counted in the store so that every instance shares them: 10 a minute and
    /// 30 an hour, successful ones included. A password sign-in is also under the account's lock-out.
    package static let signInLimit = RateLimit([
        RateLimit.Window(count: 10, milliseconds: 60_000), RateLimit.Window(count: 30, milliseconds: 3_600_000),
    ])

    let users: UserService

    package init(users: UserService) {
        self.users = users
    }

    /// The time by the app's clock.
    package func now() -> Timestamp {
        users.settings.clock()
    }

    /// Counts a sign-in attempt from `client` (an address).
    /// - Throws: ``APIError`` ``APIError/Reason/rateLimited`` when the address made too many.
    package func admitSignIn(client: String) async throws {
        let limiter = RateLimiter(store: users.store, limit: Self.signInLimit, now: now())
        try await limiter.admit("dashboard sign-in", client: client)
    }

    /// The console role the roles of a user give, the stronger first.
    package static func role(holding roleNames: [String]) -> Role? {
        if roleNames.contains(adminRole) { return .admin }
        if roleNames.contains(viewerRole) { return .viewer }
        return nil
    }

    /// Logs an administrator in with a password (under the account's lock-out), for a console session.
    /// - Throws: the log-in's errors, or ``APIError`` ``APIError/Reason/forbidden`` for a user in neither role (its new
    ///   session is revoked again).
    package func logIn(username: String, password: String) async throws -> (user: LoggedInUser, role: Role) {
        let user = try await users.logIn(.username(username), password: password, session: SessionRequest(kind: .revocable))
        if let role = try await role(sessionToken: user.sessionToken) { return (user, role) }
        try? await users.logOut(Caller(isMaster: false, userId: user.user.objectId, sessionToken: user.sessionToken))
        throw APIError(.forbidden, "This user may not use the console: it is in neither \(Self.adminRole) nor \(Self.viewerRole).")
    }

    /// The console role of the user a session token belongs to, now; `nil` when it holds neither role.
    /// - Throws: ``APIError`` ``APIError/Reason/invalidSessionToken`` for a revoked or expired session.
    package func role(sessionToken: String) async throws -> Role? {
        Self.role(holding: try await users.caller(sessionToken: sessionToken, base: .anonymous).roleNames)
    }

    /// A user's account as the console shows it: its lock-out, its recent failures and its sessions (never their
    /// tokens).
    /// - Throws: ``APIError`` ``APIError/Reason/objectNotFound`` for an unknown user.
    package func account(userId: String) async throws -> JSON {
        try await requireUser(userId)
        let now = now()
        let policy = users.settings.lockout
        let account = try await users.store.account(userId: userId)
        let recent = policy.recent(account?.failures ?? [], at: now)
        let locked = policy.isLocked(LockoutPolicy.Record(failures: recent, lockedUntil: account?.lockedUntil), at: now)
        let sessions = try await users.store.sessions(userId: userId).filter { !$0.isExpired(at: now) }.map { session -> JSON in
            var members: [String: JSON] = ["kind": .string(session.kind.rawValue), "createdAt": .date(session.createdAt)]
            if let expiresAt = session.expiresAt { members["expiresAt"] = .date(expiresAt) }
            if let installationId = session.installationId { members["installationId"] = .string(installationId) }
            return .object(members)
        }
        var reply: [String: JSON] = ["locked": .bool(locked), "recentFailures": .int(Int64(recent.count)), "sessions": .array(sessions)]
        if locked, let until = account?.lockedUntil { reply["lockedUntil"] = .date(until) }
        return .object(reply)
    }

    /// Ends every session of a user, of both kinds; answers how many there were.
    package func revokeSessions(userId: String) async throws -> Int {
        try await requireUser(userId)
        let sessions = try await users.store.sessions(userId: userId)
        guard !sessions.isEmpty else { return 0 }
        try await users.performAccount(sessions.map { .revokeSession(token: $0.token) })
        return sessions.count
    }

    /// Clears a user's lock-out and failure count.
    package func unlock(userId: String) async throws {
        try await requireUser(userId)
        try await users.performAccount([.setLockout(userId: userId, failures: [], lockedUntil: nil)])
    }

    private func requireUser(_ userId: String) async throws {
        guard try await users.store.fetch(className: "_User", ids: [userId]).first != nil else {
            throw APIError(.objectNotFound, "No user \(userId).")
        }
    }

    /// Ends an administrator's console session.
    package func logOut(sessionToken: String) async throws {
        try await users.logOut(Caller(isMaster: false, sessionToken: sessionToken))
    }
}
