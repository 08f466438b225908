public import CirrusModel

/// How accounts and sessions behave: the settings a LeanCloud app sets in its console.
public struct AccountSettings: Sendable {
    /// The scrypt work factors for new password hashes.
    public var passwordCost: PasswordHasher.Cost
    /// The lock-out rule after failed log-ins.
    public var lockout: LockoutPolicy
    /// How long a Parse (revocable) session lasts, in milliseconds; `nil` for ever. Parse's default is a year.
    public var revocableSessionLifetime: Int64?
    /// How long a LeanCloud or Bmob (stable) session token lasts, in milliseconds; `nil` (LeanCloud's behaviour)
    /// for ever.
    public var stableSessionLifetime: Int64?
    /// LeanCloud's "log out the user when the password is updated": a password change revokes every other session
    /// of the user, so their old tokens are refused.
    public var revokeSessionsOnPasswordChange: Bool
    /// The clock of sessions and lock-outs; tests pass their own.
    public var clock: @Sendable () -> Timestamp

    public init(
        passwordCost: PasswordHasher.Cost = .standard, lockout: LockoutPolicy = LockoutPolicy(),
        revocableSessionLifetime: Int64? = 365 * 24 * 3_600_000, stableSessionLifetime: Int64? = nil,
        revokeSessionsOnPasswordChange: Bool = false, clock: @escaping @Sendable () -> Timestamp = { Timestamp.now() }
    ) {
        self.passwordCost = passwordCost
        self.lockout = lockout
        self.revocableSessionLifetime = revocableSessionLifetime
        self.stableSessionLifetime = stableSessionLifetime
        self.revokeSessionsOnPasswordChange = revokeSessionsOnPasswordChange
        self.clock = clock
    }
}
