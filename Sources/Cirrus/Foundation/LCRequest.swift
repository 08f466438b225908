import Foundation

/// A call started with a completion handler. Keep it to cancel the call; ignore it (`_ = todo.save { … }`) otherwise.
public final class LCRequest: Sendable {
    private let task: Task<Void, Never>

    init(task: Task<Void, Never>) {
        self.task = task
    }

    /// Cancels the call. Its completion handler is still called, with a failure, unless the call had finished.
    public func cancel() {
        task.cancel()
    }
}

/// The completion-handler and blocking forms of the SDK's calls, both built on the `async throws` form.
enum Call {
    /// Runs `operation` in a task and hands its result to `completion` on `queue`.
    static func start<R: CallResult>(
        on queue: DispatchQueue, completion: @escaping (R) -> Void, _ operation: @escaping @Sendable () async throws -> R.Success
    ) -> LCRequest {
        let handler = UncheckedBox(completion)
        let task = Task {
            let result = await run(R.self, operation)
            queue.async { handler.value(result) }
        }
        return LCRequest(task: task)
    }

    /// Runs `operation` and blocks the calling thread until it has finished.
    ///
    /// Never call a blocking form from async code: it parks a thread of the concurrency pool while the call needs
    /// one.
    static func wait<R: CallResult>(_ operation: @escaping @Sendable () async throws -> R.Success) -> R {
        let semaphore = DispatchSemaphore(value: 0)
        let box = ResultBox<R>()
        Task.detached {
            box.set(await run(R.self, operation))
            semaphore.signal()
        }
        semaphore.wait()
        return box.get()!
    }

    /// The result of `operation`: its value, or the error it threw as an `LCError`.
    static func run<R: CallResult>(_: R.Type, _ operation: @Sendable () async throws -> R.Success) async -> R {
        do {
            return R(success: try await operation())
        } catch {
            return R(failure: LCError(error: error))
        }
    }
}

/// A completion handler carried to the queue its caller chose, as the LeanCloud SDK does (it is not `Sendable`).
struct UncheckedBox<Value>: @unchecked Sendable {
    let value: Value

    init(_ value: Value) {
        self.value = value
    }
}

/// The result a blocking call waits for.
final class ResultBox<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value?

    func set(_ value: Value) {
        lock.withLock { self.value = value }
    }

    func get() -> Value? {
        lock.withLock { value }
    }
}
