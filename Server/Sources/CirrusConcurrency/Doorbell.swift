import Synchronization

/// Wakes one waiter early: `ring()` ends the current (or the next) `wait(upTo:)` at once; rings while no one waits
/// count as one. For a loop that polls on a timer but should not wait when it knows there is work.
package final class Doorbell: Sendable {
    private struct State {
        var rung = false
        var waiter: CheckedContinuation<Void, Never>?
        /// The number of the latest wait, and of the latest one whose time ran out (perhaps before it suspended).
        var generation: UInt64 = 0
        var expired: UInt64 = 0
    }

    private let state = Mutex(State())

    package init() {}

    /// Ends the pending wait, or the next one.
    package func ring() {
        let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
            guard let waiter = state.waiter else {
                state.rung = true
                return nil
            }
            state.waiter = nil
            return waiter
        }
        waiter?.resume()
    }

    /// Returns when the bell rings (at once if it rang since the last wait), after `timeout`, or when cancelled.
    /// One waiter at a time.
    package func wait(upTo timeout: Duration) async {
        let generation: UInt64? = state.withLock { state in
            if state.rung {
                state.rung = false
                return nil
            }
            state.generation &+= 1
            return state.generation
        }
        guard let generation else { return }
        let timer = Task { [weak self] in
            try? await Task.sleep(for: timeout)
            self?.expire(generation)
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let resumeNow = state.withLock { state -> Bool in
                    guard state.generation == generation, state.expired != generation, !state.rung, !Task.isCancelled else {
                        state.rung = false
                        return true
                    }
                    state.waiter = continuation
                    return false
                }
                if resumeNow { continuation.resume() }
            }
        } onCancel: {
            expire(generation)
        }
        timer.cancel()
    }

    /// Ends the wait of `generation`: at once if it is suspended, else as soon as it would suspend.
    private func expire(_ generation: UInt64) {
        let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
            guard state.generation == generation else { return nil }
            state.expired = generation
            let waiter = state.waiter
            state.waiter = nil
            return waiter
        }
        waiter?.resume()
    }
}
