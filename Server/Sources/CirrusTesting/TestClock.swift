package import CirrusModel
import Foundation

/// A clock that tests move by hand, for session expiry, lock-outs and code lifetimes without sleeping.
package final class TestClock: @unchecked Sendable {
    private var current: Timestamp
    private let lock = NSLock()

    package init(_ start: Timestamp = Timestamp(millisecondsSince1970: 1_790_000_000_000)) {
        current = start
    }

    /// The time now.
    package func now() -> Timestamp {
        lock.withLock { current }
    }

    /// Moves the clock forward.
    package func advance(seconds: Double) {
        lock.withLock { current = Timestamp(millisecondsSince1970: current.millisecondsSince1970 + Int64(seconds * 1000)) }
    }
}
