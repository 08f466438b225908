import Synchronization

/// The kinds of store operation: a read whose cost depends on what was asked (queries, counts), a lookup of rows by
/// key (objects by id, sessions), a transaction (every write).
package enum StoreOperation: String, Sendable, CaseIterable {
    case read
    case lookup
    case transaction
}

/// Told about every store operation as it starts and ends (the server's metrics).
package protocol StoreObserver: Sendable {
    func started(_ operation: StoreOperation)
    func finished(_ operation: StoreOperation, after duration: Duration)
}

/// The observer a store tells about its operations, set once by the server that built it; none by default.
package final class StoreObservation: Sendable {
    private let observer = Mutex<(any StoreObserver)?>(nil)

    package init() {}

    package func set(_ observer: any StoreObserver) {
        self.observer.withLock { $0 = observer }
    }

    /// Runs `work` as one operation of `kind`, told to the observer if there is one.
    package func observe<T>(_ kind: StoreOperation, _ work: () async throws -> T) async throws -> T {
        guard let observer = observer.withLock({ $0 }) else { return try await work() }
        let started = ContinuousClock.now
        observer.started(kind)
        defer { observer.finished(kind, after: started.duration(to: .now)) }
        return try await work()
    }
}
