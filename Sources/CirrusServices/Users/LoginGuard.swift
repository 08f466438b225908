import CirrusModel
import CirrusStorage

/// Checks a password (or code) of an account under the lock-out rule, counting attempts atomically in the store.
///
/// Each attempt is appended to the account's failures *before* the password is checked, in one statement, and
/// cleared again when it was right. So concurrent guesses all count: once more than ``LockoutPolicy/maximumFailures``
/// + 1 attempts are under way or failed within the window, further ones are refused without being checked, and a
/// burst of parallel guesses gets no more tries than a patient attacker.
struct LoginGuard {
    let store: any StorageAdapter
    let policy: LockoutPolicy
    let hasher: PasswordHasher
    let now: Timestamp

    static let lockedMessage =
        "You have exceeded the maximum number of login attempts, please try again later, or consider resetting your password."

    /// Verifies `password` for `userId`; on success clears the failures and upgrades a legacy hash.
    /// - Parameter mismatch: the error for a wrong password (210 at log-in, 210 with another text on a change).
    /// - Throws: ``APIError`` ``APIError/Reason/accountLocked`` or `mismatch`.
    func verify(_ password: String, of userId: String, mismatch: APIError) async throws {
        try await perform([.appendFailure(userId: userId, at: now)])
        let account = try await store.account(userId: userId)
        let recent = (account?.failures ?? [now]).filter { now.millisecondsSince1970 - $0.millisecondsSince1970 < policy.windowMilliseconds }
        let record = LockoutPolicy.Record(failures: recent, lockedUntil: account?.lockedUntil)
        if policy.isLocked(record, at: now) || recent.count > policy.maximumFailures + 1 {
            try await lock(userId, recent)
        }
        let stored = account?.password.flatMap(StoredPassword.init(storedForm:))
        guard let stored, case .match(let needsRehash) = hasher.verify(password, against: stored) else {
            if recent.count > policy.maximumFailures { try await lock(userId, recent) }
            throw mismatch
        }
        var writes: [AccountWrite] = [.setLockout(userId: userId, failures: [], lockedUntil: nil)]
        if needsRehash { writes.append(.setPassword(userId: userId, password: try hasher.hash(password))) }
        try await perform(writes)
    }

    /// Locks the account until a window after this attempt, and refuses the attempt.
    private func lock(_ userId: String, _ failures: [Timestamp]) async throws -> Never {
        let until = Timestamp(millisecondsSince1970: now.millisecondsSince1970 + policy.windowMilliseconds)
        try await perform([.setLockout(userId: userId, failures: failures, lockedUntil: until)])
        throw APIError(.accountLocked, Self.lockedMessage)
    }

    private func perform(_ writes: [AccountWrite]) async throws {
        for result in try await store.perform(writes.map(WriteCommand.account), atomically: true) {
            if case .failure(let error) = result { throw error.apiError(className: "_User") }
        }
    }
}
