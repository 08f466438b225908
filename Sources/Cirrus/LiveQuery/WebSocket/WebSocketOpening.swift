import Foundation

/// The one outcome of opening a connection, which several parties race to decide: the work that opens it, the
/// timeout, and the cancellation of the task waiting for it. The first ``resolve(_:)`` wins; the others learn that
/// they lost (and the work then closes what it opened).
final class WebSocketOpening<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var outcome: Result<Value, any Error>?
    private var continuation: CheckedContinuation<Value, any Error>?

    /// Starts the work with `start` and waits for the outcome: the work's, ``WebSocketError/timedOut`` after
    /// `timeout` seconds, or `CancellationError` when the task is cancelled (then the work is not started if it was not yet).
    func value(timeout: TimeInterval, start: () -> Void) async throws -> Value {
        let timer = Task { [self] in
            guard (try? await Task.sleep(nanoseconds: UInt64(max(timeout, 0) * 1e9))) != nil else { return }
            resolve(.failure(WebSocketError.timedOut))
        }
        defer { timer.cancel() }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let early: Result<Value, any Error>? = lock.withLock {
                    if outcome == nil { self.continuation = continuation }
                    return outcome
                }
                if let early { continuation.resume(with: early) } else { start() }
            }
        } onCancel: {
            resolve(.failure(CancellationError()))
        }
    }

    /// Decides the outcome unless it was decided.
    /// - Returns: whether this call decided it.
    @discardableResult
    func resolve(_ result: Result<Value, any Error>) -> Bool {
        let (decided, waiting): (Bool, CheckedContinuation<Value, any Error>?) = lock.withLock {
            guard outcome == nil else { return (false, nil) }
            outcome = result
            defer { continuation = nil }
            return (true, continuation)
        }
        waiting?.resume(with: result)
        return decided
    }
}
