import ArgumentParser
import CirrusServer
import CirrusServices

/// The account settings of `cirrus serve`: verification rules, the texts of messages and the SMS limits.
struct AccountOptions: ParsableArguments {
    @Option(help: "Application name used in messages (CIRRUS_APP_NAME, default Cirrus).")
    var appName: String?

    @Option(help: "Public base URL that e-mailed links start with (CIRRUS_PUBLIC_URL, default http://<host>:<port>).")
    var publicURL: String?

    @Option(help: "Sender address of account e-mails (CIRRUS_EMAIL_FROM, default noreply@localhost).")
    var emailFrom: String?

    @Flag(inversion: .prefixedNo, help: "Mail a verification link on sign-up and e-mail change (CIRRUS_VERIFY_EMAIL_ON_SIGN_UP, default off).")
    var verifyEmailOnSignUp: Bool?

    @Flag(inversion: .prefixedNo, help: "Refuse password log-ins of users with an unverified e-mail: 216 (CIRRUS_PREVENT_LOGIN_WITH_UNVERIFIED_EMAIL).")
    var preventLoginWithUnverifiedEmail: Bool?

    @Flag(inversion: .prefixedNo, help: "Refuse phone-and-password log-ins of unverified numbers: 215 (CIRRUS_PREVENT_LOGIN_WITH_UNVERIFIED_PHONE).")
    var preventLoginWithUnverifiedPhone: Bool?

    @Flag(inversion: .prefixedNo, help: "Reset passwords by SMS only for verified numbers (CIRRUS_REQUIRE_VERIFIED_PHONE_FOR_SMS_RESET).")
    var requireVerifiedPhoneForSmsReset: Bool?

    @Flag(inversion: .prefixedNo, help: "A password change or reset revokes all the user's sessions (CIRRUS_REVOKE_SESSIONS_ON_PASSWORD_CHANGE).")
    var revokeSessionsOnPasswordChange: Bool?

    @Option(help: "scrypt's work factor for new password hashes, as log2 N from 10 to 20 (CIRRUS_PASSWORD_COST, default 15: 32 MiB of memory a hash); a user's hash of another cost is redone at its next log-in.")
    var passwordCost: Int?

    @Option(help: "Days a Parse (revocable) session lasts; 0 for ever (CIRRUS_SESSION_LIFETIME_DAYS, default 365).")
    var sessionLifetimeDays: Int?

    @Option(help: "Days a LeanCloud or Bmob session token lasts; 0 for ever (CIRRUS_STABLE_SESSION_LIFETIME_DAYS, default 0).")
    var stableSessionLifetimeDays: Int?

    @Option(help: "Lifetime of SMS codes in minutes (CIRRUS_SMS_CODE_TTL, default 10).")
    var smsCodeTtl: Int?

    @Option(help: "Least seconds between two messages to one number or address (CIRRUS_SMS_INTERVAL, default 60).")
    var smsInterval: Int?

    @Option(help: "Most messages to one number or address in 24 hours (CIRRUS_SMS_DAILY_LIMIT, default 10).")
    var smsDailyLimit: Int?

    @Option(help: "A sandbox number and its fixed code, <number>=<code>; repeatable (CIRRUS_SMS_SANDBOX, comma-separated).")
    var smsSandbox: [String] = []

    @Option(help: "Directory of message templates: sms.txt, verify-email.txt, reset-password.txt, … (CIRRUS_TEMPLATE_DIR).")
    var templateDir: String?

    /// `defaults` with every given flag or variable applied.
    /// - Throws: `ValidationError` for a malformed value or an unreadable template directory.
    func settings(_ values: EnvironmentValues, defaults: AccountSettings) throws -> AccountSettings {
        var settings = defaults
        settings.verifyEmailOnSignUp = try values.bool(verifyEmailOnSignUp, "CIRRUS_VERIFY_EMAIL_ON_SIGN_UP") ?? settings.verifyEmailOnSignUp
        settings.preventLoginWithUnverifiedEmail = try values.bool(preventLoginWithUnverifiedEmail, "CIRRUS_PREVENT_LOGIN_WITH_UNVERIFIED_EMAIL")
            ?? settings.preventLoginWithUnverifiedEmail
        settings.preventLoginWithUnverifiedPhone = try values.bool(preventLoginWithUnverifiedPhone, "CIRRUS_PREVENT_LOGIN_WITH_UNVERIFIED_PHONE")
            ?? settings.preventLoginWithUnverifiedPhone
        settings.requireVerifiedPhoneForSMSReset = try values.bool(requireVerifiedPhoneForSmsReset, "CIRRUS_REQUIRE_VERIFIED_PHONE_FOR_SMS_RESET")
            ?? settings.requireVerifiedPhoneForSMSReset
        settings.revokeSessionsOnPasswordChange = try values.bool(revokeSessionsOnPasswordChange, "CIRRUS_REVOKE_SESSIONS_ON_PASSWORD_CHANGE")
            ?? settings.revokeSessionsOnPasswordChange
        if let days = try lifetime(values.integer(sessionLifetimeDays, "CIRRUS_SESSION_LIFETIME_DAYS")) {
            settings.revocableSessionLifetime = days
        }
        if let days = try lifetime(values.integer(stableSessionLifetimeDays, "CIRRUS_STABLE_SESSION_LIFETIME_DAYS")) {
            settings.stableSessionLifetime = days
        }
        if let log2N = try values.integer(passwordCost, "CIRRUS_PASSWORD_COST") {
            guard (10...20).contains(log2N) else { throw ValidationError("The password cost is log2 N of scrypt, from 10 to 20.") }
            settings.passwordCost = PasswordHasher.Cost(log2N: log2N, blockSize: settings.passwordCost.blockSize, parallelism: settings.passwordCost.parallelism)
        }
        settings.messaging = try messaging(values, defaults: settings.messaging)
        return settings
    }

    /// A session lifetime in days as milliseconds: `.some(nil)` for 0 (never expires), `nil` when not given.
    private func lifetime(_ days: Int?) throws -> Int64?? {
        guard let days else { return nil }
        guard days >= 0 else { throw ValidationError("A session lifetime must not be negative.") }
        return .some(days == 0 ? nil : Int64(days) * 86_400_000)
    }

    private func messaging(_ values: EnvironmentValues, defaults: MessagingSettings) throws -> MessagingSettings {
        var messaging = defaults
        messaging.appName = values.string(appName, "CIRRUS_APP_NAME") ?? messaging.appName
        messaging.publicURL = values.string(publicURL, "CIRRUS_PUBLIC_URL") ?? messaging.publicURL
        messaging.emailFrom = values.string(emailFrom, "CIRRUS_EMAIL_FROM") ?? messaging.emailFrom
        if let minutes = try positive(values.integer(smsCodeTtl, "CIRRUS_SMS_CODE_TTL"), "The SMS code TTL") {
            messaging.smsCodeLifetime = Int64(minutes) * 60_000
        }
        if let seconds = try values.integer(smsInterval, "CIRRUS_SMS_INTERVAL") {
            guard seconds >= 0 else { throw ValidationError("The SMS interval must not be negative.") }
            messaging.minimumSendInterval = Int64(seconds) * 1000
        }
        messaging.dailySendLimit = try positive(values.integer(smsDailyLimit, "CIRRUS_SMS_DAILY_LIMIT"), "The SMS daily limit") ?? messaging.dailySendLimit
        for entry in values.list(smsSandbox, "CIRRUS_SMS_SANDBOX") {
            guard let (number, code) = MessagingSettings.sandboxEntry(entry) else {
                throw ValidationError("A sandbox number is written <number>=<digits>, like +8618600000000=123456; got '\(entry)'.")
            }
            messaging.sandboxNumbers[number] = code
        }
        if let directory = values.string(templateDir, "CIRRUS_TEMPLATE_DIR") {
            do {
                messaging.templates = try MessageTemplates.load(directory: directory)
            } catch {
                throw ValidationError("Cannot read the templates in \(directory): \(error)")
            }
        }
        return messaging
    }

    private func positive(_ value: Int?, _ name: String) throws -> Int? {
        guard let value else { return nil }
        guard value > 0 else { throw ValidationError("\(name) must be positive, got \(value).") }
        return value
    }
}
