package import CirrusModel

/// The log-in lock-out rule of the LeanCloud guides (seed 000 L779–781, 001 L1156–1159): more than 6 wrong passwords
/// or verification codes for one account within 15 minutes lock it; it recovers 15 minutes after the last attempt,
/// and while it is locked even correct credentials are refused.
///
/// Choices where the guides are silent: the 7th failure itself is answered with the lock-out error; every attempt
/// made while locked (right or wrong) counts as an attempt, so it moves the end of the lock; a successful log-in
/// clears the failures. Pure: the caller keeps one ``Record`` per account and passes the time in.
public struct LockoutPolicy: Sendable {
    /// Failures allowed within the window; one more locks.
    public var maximumFailures: Int
    /// The window in which failures count, and how long a lock lasts after the last attempt.
    public var windowMilliseconds: Int64

    public init(maximumFailures: Int = 6, windowMilliseconds: Int64 = 15 * 60 * 1000) {
        self.maximumFailures = maximumFailures
        self.windowMilliseconds = windowMilliseconds
    }

    /// What is kept per account.
    package struct Record: Sendable, Hashable {
        /// The failures still inside the window, oldest first.
        package var failures: [Timestamp] = []
        /// The end of the current lock, if any.
        package var lockedUntil: Timestamp?

        package init(failures: [Timestamp] = [], lockedUntil: Timestamp? = nil) {
            self.failures = failures
            self.lockedUntil = lockedUntil
        }
    }

    /// The failures still inside the window at `now`.
    package func recent(_ failures: [Timestamp], at now: Timestamp) -> [Timestamp] {
        failures.filter { now.millisecondsSince1970 - $0.millisecondsSince1970 < windowMilliseconds }
    }

    /// Whether an attempt at `now` must be refused with the lock-out error.
    package func isLocked(_ record: Record, at now: Timestamp) -> Bool {
        guard let until = record.lockedUntil else { return false }
        return now.millisecondsSince1970 < until.millisecondsSince1970
    }

    /// The record after an attempt at `now` that was refused because the account is locked: the lock now ends a
    /// window after this attempt.
    package func refusedWhileLocked(_ record: Record, at now: Timestamp) -> Record {
        var next = record
        next.lockedUntil = later(now)
        return next
    }

    /// The record after a wrong password or code at `now`, and whether this failure locked the account.
    package func failed(_ record: Record, at now: Timestamp) -> (record: Record, locked: Bool) {
        var next = record
        next.failures = recent(record.failures, at: now) + [now]
        guard next.failures.count > maximumFailures else { return (next, false) }
        next.lockedUntil = later(now)
        return (next, true)
    }

    /// The record after a successful log-in: no failures, no lock.
    package func succeeded(_ record: Record) -> Record {
        Record()
    }

    private func later(_ time: Timestamp) -> Timestamp {
        Timestamp(millisecondsSince1970: time.millisecondsSince1970 + windowMilliseconds)
    }
}
