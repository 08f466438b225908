import CirrusConcurrency
import CirrusModel

/// Runs a request's work against its deadline.
enum RequestDeadline {
    /// The result of `work`, run in a task of its own, or `nil` when `timeout` passes first. The work is then
    /// cancelled (which interrupts a SQLite statement and a wait for a database connection) but not awaited: a
    /// request is answered on time even when its work is stuck somewhere that ignores cancellation. The work is
    /// cancelled too when the caller is.
    static func run<T: Sendable>(_ timeout: Duration, _ work: @escaping @Sendable () async -> T) async -> T? {
        let outcome = FirstOutcome<T?>()
        let task = Task { outcome.decide(.success(await work())) }
        let entry = DeadlineWatch.shared.add(timeout) {
            if outcome.decide(.success(nil)) { task.cancel() }
        }
        defer { DeadlineWatch.shared.remove(entry) }
        return try? await outcome.value {
            task.cancel()
            outcome.decide(.success(nil))
        }
    }
}
