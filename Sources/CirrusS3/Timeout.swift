/// Runs `operation`, cancelling it and throwing ``TimeoutError`` when `timeout` passes first.
func withTimeout<T: Sendable>(_ timeout: Duration, _ operation: @escaping @Sendable () async throws -> T) async throws -> T {
    try await withThrowingTaskGroup(of: T?.self) { group in
        group.addTask { try await operation() }
        group.addTask {
            try await Task.sleep(for: timeout)
            return nil
        }
        defer { group.cancelAll() }
        guard let result = try await group.next(), let value = result else { throw TimeoutError(timeout: timeout) }
        return value
    }
}

/// An operation did not finish in time.
struct TimeoutError: Error, CustomStringConvertible {
    let timeout: Duration

    var description: String { "no complete reply within \(timeout)" }
}
