import CirrusModel
import CirrusStorage

/// Checks a verification code for an account under the same lock-out rule as passwords (seed 000 L779–781: "more
/// than 6 wrong passwords or verification codes"), counting the attempt in the store before the code is checked,
/// as ``LoginGuard`` does for passwords, so that parallel guesses all count.
struct CodeAttemptGuard {
    let store: any StorageAdapter
    let policy: LockoutPolicy
    let now: Timestamp

    /// Runs `isRight` for an attempt on `userId`'s account; clears the failures when it returns true.
    /// - Throws: ``APIError`` ``APIError/Reason/accountLocked`` (without checking the code) while the account is
    ///   locked or when this failure locks it, or `mismatch` for a wrong code.
    func verify(_ userId: String, mismatch: APIError, _ isRight: () async throws -> Bool) async throws {
        try await perform([.appendFailure(userId: userId, at: now)])
        let account = try await store.account(userId: userId)
        let recent = (account?.failures ?? [now]).filter { now.millisecondsSince1970 - $0.millisecondsSince1970 < policy.windowMilliseconds }
        let record = LockoutPolicy.Record(failures: recent, lockedUntil: account?.lockedUntil)
        if policy.isLocked(record, at: now) || recent.count > policy.maximumFailures + 1 {
            try await lock(userId, recent)
        }
        guard try await isRight() else {
            if recent.count > policy.maximumFailures { try await lock(userId, recent) }
            throw mismatch
        }
        try await perform([.setLockout(userId: userId, failures: [], lockedUntil: nil)])
    }

    private func lock(_ userId: String, _ failures: [Timestamp]) async throws -> Never {
        let until = Timestamp(millisecondsSince1970: now.millisecondsSince1970 + policy.windowMilliseconds)
        try await perform([.setLockout(userId: userId, failures: failures, lockedUntil: until)])
        throw APIError(.accountLocked, LoginGuard.lockedMessage)
    }

    private func perform(_ writes: [AccountWrite]) async throws {
        for result in try await store.perform(writes.map(WriteCommand.account), atomically: true) {
            if case .failure(let error) = result { throw error.apiError(className: "_User") }
        }
    }
}
