import Dispatch

/// Keeps a timer of every clock armed for the life of the process, from before the server accepts connections.
///
/// libdispatch (under Swift concurrency's executor on Linux) creates the timer descriptor of a clock when a timer of
/// that clock is first programmed, and aborts the process (SIGILL) when it cannot: a first `Task.sleep` or
/// `asyncAfter` of a clock while clients held every file descriptor (a shutdown's deadline, for one) crashed the
/// server. With one far-off timer of each clock always armed, each descriptor is made at start and never closed.
enum DispatchTimers {
    /// The wall clock (`CLOCK_REALTIME`) and the uptime clock (`CLOCK_MONOTONIC`; `DispatchTime`, `SuspendingClock`).
    /// Immutable once made; the sources themselves are thread-safe.
    nonisolated(unsafe) private static let sources: [any DispatchSourceTimer] = {
        let far = DispatchTimeInterval.seconds(365 * 24 * 3600)
        let wall = DispatchSource.makeTimerSource(queue: .global())
        wall.schedule(wallDeadline: .now() + far)
        let uptime = DispatchSource.makeTimerSource(queue: .global())
        uptime.schedule(deadline: .now() + far)
        return [wall, uptime]
    }()

    /// Arms them once; later calls do nothing.
    static func prime() {
        for source in sources { source.activate() }
        // `ContinuousClock` (`CLOCK_BOOTTIME`) has no dispatch source in Swift: a task sleeps on it as long.
        _ = continuous
    }

    private static let continuous = Task.detached(priority: .background) {
        try? await ContinuousClock().sleep(for: .seconds(365 * 24 * 3600))
    }
}
