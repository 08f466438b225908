/// The first of several possible outcomes of a piece of work (its result, a deadline, a lost connection, the caller's
/// cancellation), delivered once to whoever waits for it; the later ones find it decided.
///
/// It lets a caller stop waiting for work that is stuck somewhere that ignores cancellation: the work runs in a task
/// of its own, and the caller waits here instead of on that task.
public final class FirstOutcome<T: Sendable>: @unchecked Sendable {
    private let lock = Lock()
    private var continuation: CheckedContinuation<T, any Error>?
    private var outcome: Result<T, any Error>?

    public init() {}

    /// Whether an outcome has been delivered (or is waiting to be).
    public var isDecided: Bool { lock.withLock { outcome != nil } }

    /// Offers `result`; returns whether it was the first.
    @discardableResult
    public func decide(_ result: Result<T, any Error>) -> Bool {
        let waiting = lock.withLock { () -> CheckedContinuation<T, any Error>?? in
            guard outcome == nil else { return .none }
            outcome = result
            defer { continuation = nil }
            return .some(continuation)
        }
        guard case .some(let continuation) = waiting else { return false }
        continuation?.resume(with: result)
        return true
    }

    /// Waits for the first outcome; `onCancel` runs when the waiting task is cancelled (it usually decides).
    public func value(onCancel: @escaping @Sendable () -> Void) async throws -> T {
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let decided = lock.withLock { () -> Result<T, any Error>? in
                    if outcome == nil { self.continuation = continuation }
                    return outcome
                }
                if let decided { continuation.resume(with: decided) }
            }
        } onCancel: {
            onCancel()
        }
    }
}
