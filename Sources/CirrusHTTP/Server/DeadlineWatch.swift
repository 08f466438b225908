import CirrusModel
import NIOCore
import NIOPosix

/// The deadlines of the requests in flight, checked by one repeating timer instead of a timer per request.
///
/// Scheduling and cancelling a timer on an event loop from a request's task wakes that loop twice per request (a
/// write to its eventfd each time); with one sweep every ``interval`` a request only adds and removes a dictionary
/// entry under a lock. A deadline fires at most ``interval`` late. The sweep stops after a second without requests,
/// so an idle server does not wake.
final class DeadlineWatch: @unchecked Sendable {
    static let interval: TimeAmount = .milliseconds(50)
    /// Sweeps without a request before the timer stops.
    static let idleSweeps = 20

    private let lock = Lock()
    private var entries: [UInt64: Entry] = [:]
    private var nextID: UInt64 = 0
    private var sweeper: RepeatedTask?
    private var emptySweeps = 0
    private let loop: any EventLoop

    private struct Entry {
        let deadline: NIODeadline
        let expire: @Sendable () -> Void
    }

    init(loop: any EventLoop = NIOSingletons.posixEventLoopGroup.any()) {
        self.loop = loop
    }

    /// Calls `expire` once `timeout` has passed, unless ``remove(_:)`` is called first with the id returned.
    func add(_ timeout: Duration, expire: @escaping @Sendable () -> Void) -> UInt64 {
        let deadline = NIODeadline.now() + TimeAmount(timeout)
        return lock.withLock {
            nextID += 1
            entries[nextID] = Entry(deadline: deadline, expire: expire)
            emptySweeps = 0
            if sweeper == nil {
                sweeper = loop.scheduleRepeatedTask(initialDelay: Self.interval, delay: Self.interval) { [weak self] _ in self?.sweep() }
            }
            return nextID
        }
    }

    func remove(_ id: UInt64) {
        lock.withLock { _ = entries.removeValue(forKey: id) }
    }

    /// Whether the sweeping timer runs.
    var isSweeping: Bool { lock.withLock { sweeper != nil } }

    private func sweep() {
        let now = NIODeadline.now()
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
