package import CirrusModel
import CirrusStorage
import Foundation
import Logging

/// The e-mail flows: verification links on sign-up, on an address change and on request; password reset links;
/// and what the pages those links open do.
extension VerificationService {
    /// After a sign-up or an update that set `email`: mails a verification link when the app verifies e-mails
    /// (``AccountSettings/verifyEmailOnSignUp``). Never fails the request that triggered it; a failure is logged.
    package func emailChanged(userId: String) async {
        guard settings.verifyEmailOnSignUp else { return }
        do {
            guard let user = try await store.fetch(className: "_User", ids: [userId]).first,
                let address = user.fields["email"]?.stringValue
            else { return }
            try await sendLink(.verifyEmail, to: address, of: user)
        } catch {
            logger.warning("verification e-mail not sent", metadata: ["userId": "\(userId)", "error": "\(error)"])
        }
    }

    /// `requestEmailVerify {email}` (Parse: `verificationEmailRequest`): mails a new verification link; nothing when
    /// the address is verified already.
    /// - Throws: ``APIError`` ``APIError/Reason/emailMissing`` (204), ``APIError/Reason/emailNotFound`` (205),
    ///   ``APIError/Reason/tooManyMessages`` or ``APIError/Reason/messageSendFailed``.
    package func requestEmailVerification(email: JSON?) async throws {
        let address = try Self.address(email)
        guard let user = try await users.findUser(.email(address)) else { throw Self.emailNotFound(address) }
        guard user.fields["emailVerified"] != .bool(true) else { return }
        try await sendLink(.verifyEmail, to: address, of: user)
    }

    /// `requestPasswordReset {email}`: mails a password reset link to the user with this e-mail or, when
    /// `matchUsername` (LeanCloud, seed 002 L1045), this username.
    /// - Throws: ``APIError`` ``APIError/Reason/emailMissing`` (204), ``APIError/Reason/emailNotFound`` (205),
    ///   ``APIError/Reason/tooManyMessages`` or ``APIError/Reason/messageSendFailed``.
    package func requestPasswordReset(email: JSON?, matchUsername: Bool) async throws {
        let given = try Self.address(email)
        var user = try await users.findUser(.email(given))
        if user == nil, matchUsername { user = try await users.findUser(.username(given)) }
        guard let user else { throw Self.emailNotFound(given) }
        guard let address = user.fields["email"]?.stringValue ?? (UserRules.isEmail(given) ? given : nil) else {
            throw Self.emailNotFound(given)
        }
        try await sendLink(.resetPassword, to: address, of: user)
    }

    /// What a verification link does: marks the address it was sent to verified, once, while the user still has
    /// that address.
    /// - Returns: the verified address, or `nil` for an unknown, expired, used or outdated link.
    package func verifyEmail(token: String) async throws -> String? {
        try await locks.withLock("link:" + token) {
            guard let link = try await liveLink(.verifyEmail, token), let userId = link.userId else { return nil }
            try await users.performAccount([.deleteCode(purpose: link.purpose, target: link.target)])
            let address = link.data?["email"]?.stringValue
            guard let user = try await store.fetch(className: "_User", ids: [userId]).first,
                let address, user.fields["email"]?.stringValue == address
            else { return nil }
            let verified = try await users.touch(userId, changes: ObjectUpdate(operations: [(FieldPath(field: "emailVerified"), .set(.bool(true)))]), writes: [])
            users.announceVerified(.email, user: verified)
            return address
        }
    }

    /// Whether a password reset link can still be used (the page shows its form only then).
    package func isValidResetLink(token: String) async throws -> Bool {
        try await liveLink(.resetPassword, token) != nil
    }

    /// What the reset page does with a new password: sets it once per link, revokes the stable token (every session
    /// with ``AccountSettings/revokeSessionsOnPasswordChange``) and clears the lock-out.
    /// - Returns: `false` for an unknown, expired or used link.
    /// - Throws: ``APIError`` ``APIError/Reason/passwordMissing`` for an empty password (the link stays usable).
    package func resetPassword(token: String, password: String) async throws -> Bool {
        try await locks.withLock("link:" + token) {
            guard let link = try await liveLink(.resetPassword, token), let userId = link.userId else { return false }
            try await users.setPassword(of: userId, to: password)
            try await users.performAccount([.deleteCode(purpose: link.purpose, target: link.target)])
            return true
        }
    }

    // MARK: Helpers

    /// Mails a link of `purpose` to `address`, replacing the user's previous link of that purpose.
    func sendLink(_ purpose: CodePurpose, to address: String, of user: StoredObject) async throws {
        let target = address.lowercased()
        try await locks.withLock("mail:" + target) {
            let now = settings.clock()
            try await checkSendLimits(target, now: now)
            let lifetime = purpose == .verifyEmail ? messaging.verifyEmailLinkLifetime : messaging.resetPasswordLinkLifetime
            let token = TokenGenerator.random(32, from: TokenGenerator.lowercaseAlphanumerics)
            let link = StoredCode(
                purpose: purpose.rawValue, target: user.objectId, code: token, userId: user.objectId, createdAt: now,
                expiresAt: Timestamp(millisecondsSince1970: now.millisecondsSince1970 + lifetime), data: ["email": .string(address)]
            )
            try await users.performAccount([.saveCode(link)])
            do {
                try await transports.mail.send(mail(purpose, to: address, of: user, token: token, hours: lifetime / 3_600_000))
            } catch {
                logger.error("e-mail send failed", metadata: ["purpose": "\(purpose.rawValue)", "error": "\(error)"])
                try? await users.performAccount([.deleteCode(purpose: link.purpose, target: link.target)])
                throw APIError(.messageSendFailed, "The e-mail could not be sent.")
            }
            try await recordSend(target, now: now)
        }
    }

    private func mail(_ purpose: CodePurpose, to address: String, of user: StoredObject, token: String, hours: Int64) -> MailMessage {
        let template = purpose == .verifyEmail ? messaging.templates.verifyEmail : messaging.templates.resetPassword
        let page = purpose == .verifyEmail ? "verify-email" : "reset-password"
        let url = messaging.publicURL ?? "http://127.0.0.1:3000"
        let base = url.hasSuffix("/") ? String(url.dropLast()) : url
        let values = [
            "appname": messaging.appName, "username": user.fields["username"]?.stringValue ?? address, "email": address,
            "link": "\(base)/auth/\(page)?token=\(token)", "ttl": String(hours),
        ]
        return MailMessage(
            from: messaging.emailFrom, fromName: messaging.appName, to: [address],
            subject: MessageTemplates.render(template.subject, values), text: MessageTemplates.render(template.text, values),
            html: template.html.map { MessageTemplates.render($0, values, escape: HTMLText.escape) }
        )
    }

    private func liveLink(_ purpose: CodePurpose, _ token: String) async throws -> StoredCode? {
        guard !token.isEmpty else { return nil }
        let now = settings.clock()
        return try await store.codes(purpose: purpose.rawValue, code: token).first { isLive($0, now: now) && $0.code == token }
    }

    static func address(_ value: JSON?) throws(APIError) -> String {
        guard let address = value?.stringValue?.trimmingCharacters(in: .whitespaces), !address.isEmpty else {
            throw APIError(.emailMissing, "The email is missing, and must be specified.")
        }
        return address
    }

    static func emailNotFound(_ address: String) -> APIError {
        APIError(.emailNotFound, "Could not find user by email '\(address)'.")
    }
}
