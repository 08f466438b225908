import CirrusModel
import Dispatch

/// Deadlines of many short operations (requests, waits for a database connection), checked by one repeating timer
/// instead of a timer per operation.
///
/// Arming and cancelling a timer per operation wakes the thread that runs timers twice per operation; here an
/// operation only adds and removes a dictionary entry under a lock. A deadline fires at most ``interval`` late. The
/// timer stops after a second without operations, so an idle process does not wake.
package final class DeadlineWatch: @unchecked Sendable {
    static let interval: DispatchTimeInterval = .milliseconds(50)
    /// Sweeps without an operation before the timer stops.
    static let idleSweeps = 20

    private let lock = Lock()
    private let queue = DispatchQueue(label: "cirrus.deadline-watch")
    private var entries: [UInt64: Entry] = [:]
    private var nextID: UInt64 = 0
    private var sweeper: (any DispatchSourceTimer)?
    private var emptySweeps = 0

    private struct Entry {
        let deadline: ContinuousClock.Instant
        let expire: @Sendable () -> Void
    }

    /// The process's watch: request deadlines and waits for a database connection share its one timer.
    package static let shared = DeadlineWatch()

    package init() {}

    /// Calls `expire` once `timeout` has passed, unless ``remove(_:)`` is called first with the id returned.
    package func add(_ timeout: Duration, expire: @escaping @Sendable () -> Void) -> UInt64 {
        let deadline = ContinuousClock.now + timeout
        return lock.withLock {
            nextID += 1
            entries[nextID] = Entry(deadline: deadline, expire: expire)
            emptySweeps = 0
            if sweeper == nil {
                let timer = DispatchSource.makeTimerSource(queue: queue)
                timer.schedule(deadline: .now() + Self.interval, repeating: Self.interval)
                timer.setEventHandler { [weak self] in self?.sweep() }
                timer.activate()
                sweeper = timer
            }
            return nextID
        }
    }

    package func remove(_ id: UInt64) {
        lock.withLock { _ = entries.removeValue(forKey: id) }
    }

    /// Whether the sweeping timer runs.
    package var isSweeping: Bool { lock.withLock { sweeper != nil } }

    private func sweep() {
        let now = ContinuousClock.now
        let expired = lock.withLock { () -> [@Sendable () -> Void] in
            var due: [@Sendable () -> Void] = []
            for (id, entry) in entries where entry.deadline <= now {
                due.append(entry.expire)
                entries[id] = nil
            }
            if entries.isEmpty {
                emptySweeps += 1
                if emptySweeps >= Self.idleSweeps {
                    sweeper?.cancel()
                    sweeper = nil
                }
            }
            return due
        }
        for expire in expired { expire() }
    }
}
