import Foundation

/// Runs asynchronous code on the thread that holds a GRDB connection.
///
/// GRDB hands out a connection only inside a synchronous closure on the connection's own dispatch queue, while the
/// store's logic (``SQLStore``, shared with PostgreSQL) is `async`. ``run(_:)``, called inside that closure, starts the
/// logic as a task whose preferred executor is this one, and runs the task's jobs on the calling thread until the
/// task ends: each statement the logic runs is a plain call on the connection's thread, with no thread switch, and the
/// closure returns only once the logic is done (a transaction's writes all happen inside GRDB's transaction).
final class ConnectionExecutor: TaskExecutor, @unchecked Sendable {
    private let condition = NSCondition()
    private var jobs: [UnownedJob] = []
    private var finished = false
    /// False once ``run(_:)`` has returned: a job that still arrives (none should) goes to the global executor.
    private var draining = true

    private init() {}

    /// Runs `body` to its end on the calling thread, and returns what it returned.
    static func run<T: Sendable>(_ body: @escaping @Sendable () async throws -> T) throws -> T {
        let executor = ConnectionExecutor()
        let outcome = Outcome<T>()
        Task(executorPreference: executor) {
            do {
                outcome.result = .success(try await body())
            } catch {
                outcome.result = .failure(error)
            }
            executor.finish()
        }
        executor.drain()
        guard let result = outcome.result else { throw CancellationError() }
        return try result.get()
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        condition.lock()
        guard draining else {
            condition.unlock()
            globalConcurrentExecutor.enqueue(ExecutorJob(job))
            return
        }
        jobs.append(job)
        condition.signal()
        condition.unlock()
    }

    private func finish() {
        condition.lock()
        finished = true
        condition.signal()
        condition.unlock()
    }

    /// Runs the jobs as they come, until the task has finished and no job is left.
    private func drain() {
        while true {
            condition.lock()
            while jobs.isEmpty, !finished { condition.wait() }
            if jobs.isEmpty {
                draining = false
                condition.unlock()
                return
            }
            let ready = jobs
            jobs.removeAll(keepingCapacity: true)
            condition.unlock()
            for job in ready { job.runSynchronously(on: asUnownedTaskExecutor()) }
        }
    }
}

/// What the task returned, written on the connection's thread and read there after the task.
private final class Outcome<T>: @unchecked Sendable {
    var result: Result<T, any Error>?
}
