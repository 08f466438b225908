import CirrusModel
import CirrusStorage

/// Checks a password under the lock-out rule (see ``AttemptGuard``), and upgrades a legacy or weaker hash to the
/// current scrypt cost when the password was right.
struct LoginGuard {
    let store: any StorageAdapter
    let policy: LockoutPolicy
    let hasher: PasswordHasher
    let now: Timestamp

    /// Verifies `password` for `userId`.
    /// - Parameter mismatch: the error for a wrong password (210 at log-in, 210 with another text on a change).
    /// - Throws: ``APIError`` ``APIError/Reason/accountLocked`` or `mismatch`.
    func verify(_ password: String, of userId: String, mismatch: APIError) async throws {
        let attempts = AttemptGuard(store: store, policy: policy, now: now)
        var needsRehash = false
        try await attempts.verify(userId, mismatch: mismatch) { account in
            guard let stored = account?.password.flatMap(StoredPassword.init(storedForm:)),
                case .match(let weaker) = hasher.verify(password, against: stored)
            else { return false }
            needsRehash = weaker
            return true
        }
        if needsRehash { try await attempts.perform([.setPassword(userId: userId, password: try hasher.hash(password))]) }
    }
}
