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
        let pending = PendingCalls.current
        pending?.begin()
        let task = Task {
            let result = await run(R.self, operation)
            deliver(result, to: handler, on: queue, pending: pending, last: true)
        }
        return LCRequest(task: task)
    }

    /// Hands `result` to the completion handler on `queue`, under the ``PendingCalls`` of the call that started it,
    /// which learns that the call is over once the handler of its `last` result has returned.
    static func deliver<R: CallResult>(
        _ result: R, to handler: UncheckedBox<(R) -> Void>, on queue: DispatchQueue, pending: PendingCalls?, last: Bool
    ) {
        queue.async {
            pending?.record(result)
            PendingCalls.$current.withValue(pending) { handler.value(result) }
            if last { pending?.end() }
        }
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
        let result = box.get()!
        PendingCalls.current?.record(result)
        return result
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

/// The completion-handler calls started while it is ``current``, counted until their completion handlers have
/// returned (calls started inside those handlers count too), and the results of those calls and of the blocking
/// ones. Tests use it to wait until the calls of code written in the completion-handler style (the LeanCloud
/// guide's samples) are over and to see what they got.
final class PendingCalls: @unchecked Sendable {
    /// Where calls started now are counted; `nil` (the default) counts nothing.
    @TaskLocal static var current: PendingCalls?

    private let lock = NSLock()
    private var count = 0
    private var waiters: [CheckedContinuation<Void, Never>] = []
    private var recorded: [any Sendable] = []

    /// The results handed to completion handlers or returned by blocking calls, in that order.
    var results: [any Sendable] { lock.withLock { recorded } }

    func record(_ result: some CallResult) {
        lock.withLock { recorded.append(result) }
    }

    func begin() {
        lock.withLock { count += 1 }
    }

    func end() {
        let resumed: [CheckedContinuation<Void, Never>] = lock.withLock {
            count -= 1
            guard count == 0 else { return [] }
            defer { waiters = [] }
            return waiters
        }
        for waiter in resumed { waiter.resume() }
    }

    /// Returns once no counted call is under way.
    func idle() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let now: Bool = lock.withLock {
                if count == 0 { return true }
                waiters.append(continuation)
                return false
            }
            if now { continuation.resume() }
        }
    }
}
