import CirrusModel
import CirrusStorage
import Logging

/// The SMS-code and e-mail account flows: sending codes and links under the send limits, and redeeming them under
/// the lock-out rule.
///
/// Codes are 6 random digits, one live code per purpose and number, single use, valid for their lifetime and dead
/// after ``MessagingSettings/maximumWrongCodeTries`` wrong tries. Sending and redeeming hold a lock per number (or
/// address), so that "check the limits, send, record" and "check a code, use it, delete it" do not interleave.
package struct VerificationService: Sendable {
    package let users: UserService
    let transports: MessageTransports
    let locks = KeyedLock()

    package init(users: UserService, transports: MessageTransports) {
        self.users = users
        self.transports = transports
    }

    var store: any StorageAdapter { users.store }
    var settings: AccountSettings { users.settings }
    var messaging: MessagingSettings { settings.messaging }
    var logger: Logger { users.objects.logger }

    static let invalidCode = APIError(.invalidCode, "Invalid SMS code.")
    static let day: Int64 = 24 * 3_600_000

    // MARK: Sending

    /// Sends a new code for `purpose` to the request's number and returns it; `nil` for a sandbox number, which
    /// gets no message (its fixed code is accepted instead).
    /// - Parameters:
    ///   - userId: the user the code is for, if any; only that user can redeem it.
    ///   - defaultMinutes: the lifetime when the request names none; `nil` for the configured one.
    /// - Throws: ``APIError`` ``APIError/Reason/tooManyMessages`` (LeanCloud 601, Bmob 10010) or
    ///   ``APIError/Reason/messageSendFailed`` (602); after a failed send no code is left usable.
    @discardableResult
    func sendCode(
        _ request: SMSCodeRequest, purpose: CodePurpose, userId: String?, defaultMinutes: Int? = nil, data: JSON? = nil
    ) async throws -> StoredCode? {
        let number = request.phoneNumber
        guard messaging.sandboxNumbers[number] == nil else { return nil }
        return try await locks.withLock(number) {
            let now = settings.clock()
            try await checkSendLimits(number, now: now)
            let lifetime = (request.ttlMinutes ?? defaultMinutes).map { Int64($0) * 60_000 } ?? messaging.smsCodeLifetime
            let code = StoredCode(
                purpose: purpose.rawValue, target: number, code: Self.randomDigits(6), userId: userId, createdAt: now,
                expiresAt: Timestamp(millisecondsSince1970: now.millisecondsSince1970 + lifetime), data: data
            )
            try await users.performAccount([.saveCode(code)])
            let message = SMSMessage(
                phoneNumber: number, text: smsText(request, code: code.code, purpose: purpose, minutes: lifetime / 60_000),
                code: code.code, purpose: purpose.messagePurpose, channel: request.channel
            )
            do {
                try await transports.sms.send(message)
            } catch {
                logger.error("SMS send failed", metadata: ["purpose": "\(purpose.rawValue)", "error": "\(error)"])
                try? await users.performAccount([.deleteCode(purpose: code.purpose, target: number)])
                throw APIError(.messageSendFailed, "The SMS message could not be sent.")
            }
            try await recordSend(number, now: now)
            return code
        }
    }

    /// Refuses a send to `target` within the minimum interval of the last one, or beyond the daily limit.
    func checkSendLimits(_ target: String, now: Timestamp) async throws {
        let time = now.millisecondsSince1970
        if try await store.sendCount(target: target, since: Timestamp(millisecondsSince1970: time - messaging.minimumSendInterval + 1)) > 0 {
            throw APIError(.tooManyMessages, "Can't send more than one message to \(target) within \(messaging.minimumSendInterval / 1000) seconds.")
        }
        if try await store.sendCount(target: target, since: Timestamp(millisecondsSince1970: time - Self.day + 1)) >= messaging.dailySendLimit {
            throw APIError(.tooManyMessages, "Can't send more than \(messaging.dailySendLimit) messages to \(target) within 24 hours.")
        }
    }

    func recordSend(_ target: String, now: Timestamp) async throws {
        let forget = Timestamp(millisecondsSince1970: now.millisecondsSince1970 - Self.day)
        try await users.performAccount([.recordSend(target: target, at: now, forgetBefore: forget)])
    }

    private func smsText(_ request: SMSCodeRequest, code: String, purpose: CodePurpose, minutes: Int64) -> String {
        let template = request.templateName.flatMap { messaging.templates.namedSMS[$0] } ?? messaging.templates.sms
        var values = request.variables
        values["appname"] = request.variables["name"] ?? messaging.appName
        values["op"] = request.variables["op"] ?? purpose.operation
        values["code"] = code
        values["ttl"] = String(minutes)
        return MessageTemplates.render(template, values)
    }

    // MARK: Redeeming

    /// What a redeemed code was: a stored one (deleted once used) or a sandbox number's fixed code.
    enum Match {
        case stored(StoredCode)
        case sandbox
    }

    /// A code to check against the codes of some purposes sent to a number.
    struct CodeCheck {
        var code: String
        var number: String
        var purposes: [CodePurpose]
        /// The user whose lock-out counts the attempt, if the code is for an account.
        var account: String?
        /// A stored code that names a user must name this one.
        var owner: String?
    }

    /// Checks a code and, when it is right, runs `effect` and deletes the code (a failed effect leaves it usable).
    /// - Throws: ``APIError`` ``APIError/Reason/invalidCode`` (LeanCloud 603, Bmob 207) for a wrong, expired, used
    ///   or exhausted code, ``APIError/Reason/accountLocked`` (219) for a locked account, or what `effect` throws.
    func redeem<T: Sendable>(_ check: CodeCheck, _ effect: () async throws -> T) async throws -> T {
        try await locks.withLock(check.number) {
            let now = settings.clock()
            var found: Match?
            let attempt = { (_: StoredAccount?) async throws -> Bool in
                found = try await match(check, now: now)
                if found == nil { try await countWrongTry(check, now: now) }
                return found != nil
            }
            if let account = check.account {
                try await AttemptGuard(store: store, policy: settings.lockout, now: now).verify(account, mismatch: Self.invalidCode, attempt)
            } else if try await !attempt(nil) {
                throw Self.invalidCode
            }
            let result = try await effect()
            if case .stored(let code)? = found {
                try await users.performAccount([.deleteCode(purpose: code.purpose, target: code.target)])
            }
            return result
        }
    }

    private func match(_ check: CodeCheck, now: Timestamp) async throws -> Match? {
        if let fixed = messaging.sandboxNumbers[check.number] {
            return Self.constantTimeEqual(fixed, check.code) ? .sandbox : nil
        }
        for purpose in check.purposes {
            guard let stored = try await liveCode(purpose, check.number, now: now) else { continue }
            if let owner = check.owner, let codeOwner = stored.userId, owner != codeOwner { continue }
            if Self.constantTimeEqual(stored.code, check.code) { return .stored(stored) }
        }
        return nil
    }

    /// Counts a wrong try against the live codes the check could have matched; a code that reaches the limit dies.
    private func countWrongTry(_ check: CodeCheck, now: Timestamp) async throws {
        for purpose in check.purposes {
            guard let stored = try await liveCode(purpose, check.number, now: now) else { continue }
            var writes: [AccountWrite] = [.countCodeAttempt(purpose: purpose.rawValue, target: check.number)]
            if stored.attempts + 1 >= messaging.maximumWrongCodeTries {
                writes.append(.deleteCode(purpose: purpose.rawValue, target: check.number))
            }
            try await users.performAccount(writes)
        }
    }

    /// The code of a purpose sent to a target, unless it expired or was tried wrongly too often.
    func liveCode(_ purpose: CodePurpose, _ target: String, now: Timestamp) async throws -> StoredCode? {
        guard let stored = try await store.code(purpose: purpose.rawValue, target: target) else { return nil }
        return isLive(stored, now: now) ? stored : nil
    }

    func isLive(_ code: StoredCode, now: Timestamp) -> Bool {
        now.millisecondsSince1970 < code.expiresAt.millisecondsSince1970 && code.attempts < messaging.maximumWrongCodeTries
    }

    /// The number a live code of one of `purposes` with this value was sent to, newest first (for clients that
    /// send a code without its number: Bmob's and old LeanCloud SDKs' password reset, LeanCloud's JS
    /// `verifyMobilePhone`).
    func number(ofCode code: String, purposes: [CodePurpose]) async throws -> String? {
        let now = settings.clock()
        for purpose in purposes {
            let candidates = try await store.codes(purpose: purpose.rawValue, code: code).filter { isLive($0, now: now) }
            if let newest = candidates.max(by: { $0.createdAt.millisecondsSince1970 < $1.createdAt.millisecondsSince1970 }) {
                return newest.target
            }
        }
        return messaging.sandboxNumbers.first { $0.value == code }?.key
    }

    // MARK: Helpers

    static func randomDigits(_ count: Int) -> String {
        var generator = SystemRandomNumberGenerator()
        return String((0..<count).map { _ in Character(String(Int.random(in: 0...9, using: &generator))) })
    }

    static func constantTimeEqual(_ left: String, _ right: String) -> Bool {
        let a = Array(left.utf8)
        let b = Array(right.utf8)
        guard a.count == b.count else { return false }
        return zip(a, b).reduce(UInt8(0)) { $0 | ($1.0 ^ $1.1) } == 0
    }
}

extension CodePurpose {
    /// The `purpose` an ``SMSMessage`` carries to the transport: `sms`, `login`, `verify`, `change` or `reset`.
    var messagePurpose: String {
        switch self {
        case .sms: "sms"
        case .login: "login"
        case .verifyPhone, .verifyEmail: "verify"
        case .changePhone: "change"
        case .resetPasswordBySMS, .resetPassword: "reset"
        }
    }
}
