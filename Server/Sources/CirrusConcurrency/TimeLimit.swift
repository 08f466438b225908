/// Bounds how long an operation may take: for calls to other servers (an S3 bucket, a log-in provider) whose replies
/// may stall after they started.
package enum TimeLimit {
    /// Runs `operation`, cancelling it and throwing ``TimeLimitExceeded`` when `timeout` passes first.
    package static func run<T: Sendable>(within timeout: Duration, _ operation: @escaping @Sendable () async throws -> T) async throws -> T {
        try await withThrowingTaskGroup(of: T?.self) { group in
            group.addTask { try await operation() }
            group.addTask {
                try await Task.sleep(for: timeout)
                return nil
            }
            defer { group.cancelAll() }
            guard let result = try await group.next(), let value = result else { throw TimeLimitExceeded(timeout: timeout) }
            return value
        }
    }
}

/// An operation did not finish in time.
package struct TimeLimitExceeded: Error, CustomStringConvertible {
    package let timeout: Duration

    package var description: String { "no complete reply within \(timeout)" }
}
