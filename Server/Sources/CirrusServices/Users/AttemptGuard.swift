import CirrusModel
import CirrusStorage

/// Checks a password or a verification code of an account under the lock-out rule (seed 000 L779–781: "more than 6
/// wrong passwords or verification codes" within 15 minutes lock the account until 15 minutes after the last
/// attempt).
///
/// Each attempt is appended to the account's failures *before* it is checked, in one statement, and cleared again
/// when it was right. So concurrent guesses all count: once more than ``LockoutPolicy/maximumFailures`` + 1 attempts
/// are under way or failed within the window, further ones are refused without being checked, and a burst of
/// parallel guesses gets no more tries than a patient attacker.
struct AttemptGuard {
    let store: any StorageAdapter
    let policy: LockoutPolicy
    let now: Timestamp

    static let lockedMessage =
        "You have exceeded the maximum number of login attempts, please try again later, or consider resetting your password."

    /// Runs `isRight` (given the account's stored state) for an attempt on `userId`'s account; clears the failures
    /// when it returns true.
    /// - Throws: ``APIError`` ``APIError/Reason/accountLocked`` (without checking) while the account is locked or
    ///   when this failure locks it, or `mismatch` for a wrong password or code.
    func verify(_ userId: String, mismatch: APIError, _ isRight: (StoredAccount?) async throws -> Bool) async throws {
        try await perform([.appendFailure(userId: userId, at: now)])
        let account = try await store.account(userId: userId)
        let recent = policy.recent(account?.failures ?? [now], at: now)
        let record = LockoutPolicy.Record(failures: recent, lockedUntil: account?.lockedUntil)
        if policy.isLocked(record, at: now) || recent.count > policy.maximumFailures + 1 {
            try await lock(userId, recent)
        }
        guard try await isRight(account) else {
            if recent.count > policy.maximumFailures { try await lock(userId, recent) }
            throw mismatch
        }
        try await perform([.setLockout(userId: userId, failures: [], lockedUntil: nil)])
    }

    private func lock(_ userId: String, _ failures: [Timestamp]) async throws -> Never {
        let locked = policy.refusedWhileLocked(LockoutPolicy.Record(failures: failures), at: now)
        try await perform([.setLockout(userId: userId, failures: locked.failures, lockedUntil: locked.lockedUntil)])
        throw APIError(.accountLocked, Self.lockedMessage)
    }

    func perform(_ writes: [AccountWrite]) async throws {
        for result in try await store.perform(writes.map(WriteCommand.account), atomically: true) {
            if case .failure(let error) = result { throw error.apiError(className: "_User") }
        }
    }
}
