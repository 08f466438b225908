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
    /// LeanCloud's "send verification e-mails when users sign up or change their e-mail".
    public var verifyEmailOnSignUp: Bool
    /// LeanCloud's "users with an unverified e-mail cannot log in": a password log-in of a user who has an e-mail
    /// whose `emailVerified` is not true is refused (216).
    public var preventLoginWithUnverifiedEmail: Bool
    /// LeanCloud's "users with an unverified phone number cannot log in": a log-in by phone number and password
    /// of a user whose `mobilePhoneVerified` is not true is refused (215).
    public var preventLoginWithUnverifiedPhone: Bool
    /// LeanCloud's "reset passwords by SMS only for verified phone numbers" (215 otherwise).
    public var requireVerifiedPhoneForSMSReset: Bool
    /// Texts, limits and lifetimes of SMS codes and e-mailed links.
    public var messaging: MessagingSettings
    /// The clock of sessions and lock-outs; tests pass their own.
    public var clock: @Sendable () -> Timestamp

    public init(
        passwordCost: PasswordHasher.Cost = .standard, lockout: LockoutPolicy = LockoutPolicy(),
        revocableSessionLifetime: Int64? = 365 * 24 * 3_600_000, stableSessionLifetime: Int64? = nil,
        revokeSessionsOnPasswordChange: Bool = false, verifyEmailOnSignUp: Bool = false, preventLoginWithUnverifiedEmail: Bool = false,
        preventLoginWithUnverifiedPhone: Bool = false, requireVerifiedPhoneForSMSReset: Bool = false,
        messaging: MessagingSettings = MessagingSettings(), clock: @escaping @Sendable () -> Timestamp = { Timestamp.now() }
    ) {
        self.passwordCost = passwordCost
        self.lockout = lockout
        self.revocableSessionLifetime = revocableSessionLifetime
        self.stableSessionLifetime = stableSessionLifetime
        self.revokeSessionsOnPasswordChange = revokeSessionsOnPasswordChange
        self.verifyEmailOnSignUp = verifyEmailOnSignUp
        self.preventLoginWithUnverifiedEmail = preventLoginWithUnverifiedEmail
        self.preventLoginWithUnverifiedPhone = preventLoginWithUnverifiedPhone
        self.requireVerifiedPhoneForSMSReset = requireVerifiedPhoneForSMSReset
        self.messaging = messaging
        self.clock = clock
    }
}
