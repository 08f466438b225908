import CirrusModel
import Testing

@testable import CirrusServices

@Suite("Log-in lock-out")
struct LockoutPolicyTests {
    let policy = LockoutPolicy()
    static let start: Int64 = 1_700_000_000_000
    static let minute: Int64 = 60_000

    func at(_ minutes: Double) -> Timestamp {
        Timestamp(millisecondsSince1970: Self.start + Int64(minutes * Double(Self.minute)))
    }

    /// Fails once at each of `minutes`; returns the record and whether the last failure locked.
    func failures(_ minutes: [Double], from record: LockoutPolicy.Record = .init()) -> (LockoutPolicy.Record, Bool) {
        var record = record
        var locked = false
        for minute in minutes { (record, locked) = policy.failed(record, at: at(minute)) }
        return (record, locked)
    }

    @Test("six failures within 15 minutes do not lock; the seventh does")
    func seventhFailureLocks() {
        let (six, lockedAfterSix) = failures([0, 1, 2, 3, 4, 5])
        #expect(!lockedAfterSix)
        #expect(!policy.isLocked(six, at: at(5.5)))
        let (seven, lockedAfterSeven) = policy.failed(six, at: at(6))
        #expect(lockedAfterSeven)
        #expect(policy.isLocked(seven, at: at(6)))
    }

    @Test("failures older than 15 minutes no longer count")
    func slidingWindow() {
        let (record, locked) = failures([0, 1, 2, 3, 4, 5, 15, 16])
        #expect(!locked)
        #expect(record.failures.count == 6)
        #expect(!policy.isLocked(record, at: at(16)))
    }

    @Test("the lock holds until 15 minutes after the last attempt, even for correct credentials, then clears")
    func lockDuration() {
        let (locked, _) = failures([0, 1, 2, 3, 4, 5, 6])
        #expect(policy.isLocked(locked, at: at(20.9)))
        #expect(!policy.isLocked(locked, at: at(21)))
        let retried = policy.refusedWhileLocked(locked, at: at(20))
        #expect(policy.isLocked(retried, at: at(34.9)))
        #expect(!policy.isLocked(retried, at: at(35)))
    }

    @Test("a successful log-in clears the failures")
    func successClears() {
        let (record, _) = failures([0, 1, 2, 3, 4, 5])
        let cleared = policy.succeeded(record)
        #expect(cleared == LockoutPolicy.Record())
        let (_, locked) = policy.failed(cleared, at: at(6))
        #expect(!locked)
    }
}
