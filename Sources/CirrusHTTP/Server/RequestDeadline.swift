import CirrusModel

/// Runs a request's work against its deadline.
enum RequestDeadline {
    /// The deadlines of every server of the process, on one timer.
    static let watch = DeadlineWatch()

    /// The result of `work`, run in a task of its own, or `nil` when `timeout` passes first. The work is then
    /// cancelled (which interrupts a SQLite statement and a wait for a database connection) but not awaited: a
    /// request is answered on time even when its work is stuck somewhere that ignores cancellation. The work is
    /// cancelled too when the caller is.
    static func run<T: Sendable>(_ timeout: Duration, _ work: @escaping @Sendable () async -> T) async -> T? {
        let outcome = FirstOutcome<T?>()
        let task = Task { outcome.decide(.success(await work())) }
        let entry = watch.add(timeout) {
            if outcome.decide(.success(nil)) { task.cancel() }
        }
        defer { watch.remove(entry) }
        return try? await outcome.value {
            task.cancel()
            outcome.decide(.success(nil))
        }
    }
}
