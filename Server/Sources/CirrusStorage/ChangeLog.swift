import CirrusModel

/// The change log as one process sees it: the committed changes of its database, in commit order, handed to every
/// subscriber. A store appends to it once a write commits (SQLite: in the commit, on the writer; PostgreSQL: as it
/// reads the log table that every instance writes), and the server's live features subscribe.
///
/// A subscriber gets the records delivered after it subscribed (a store that reads its log in the background delivers a
/// record a moment after its commit, so one committed just before may still come). One that falls more than `bufferSize` records
/// behind loses the oldest, and the log counts them (``droppedCount``): subscribers are expected to keep up (the
/// LiveQuery dispatcher only sorts records out to per-socket queues, which bound themselves).
package final class ChangeLog: Sendable {
    private let state = Lock()
    nonisolated(unsafe) private var continuations: [Int: AsyncStream<ChangeRecord>.Continuation] = [:]
    nonisolated(unsafe) private var nextToken = 0
    nonisolated(unsafe) private var lastSequence: Int64 = 0
    nonisolated(unsafe) private var dropped = 0
    nonisolated(unsafe) private var firstSubscription: (@Sendable () -> Void)?
    private let bufferSize: Int

    package init(bufferSize: Int = 100_000) {
        self.bufferSize = bufferSize
    }

    /// Runs `start` when the log first gets a subscriber (at once if it has had one): a store that reads its log in
    /// the background starts reading only for someone.
    package func whenFirstSubscribed(_ start: @escaping @Sendable () -> Void) {
        let subscribed = state.withLock {
            guard nextToken == 0 else { return true }
            firstSubscription = start
            return false
        }
        if subscribed { start() }
    }

    /// The records committed from now on, until the stream is dropped or cancelled.
    package func subscribe() -> AsyncStream<ChangeRecord> {
        let (stream, continuation) = AsyncStream.makeStream(of: ChangeRecord.self, bufferingPolicy: .bufferingNewest(bufferSize))
        let (token, start) = state.withLock {
            nextToken += 1
            continuations[nextToken] = continuation
            let start = firstSubscription
            firstSubscription = nil
            return (nextToken, start)
        }
        start?()
        continuation.onTermination = { [weak self] _ in
            guard let self else { return }
            _ = self.state.withLock { self.continuations.removeValue(forKey: token) }
        }
        return stream
    }

    /// How many subscribe now.
    package var subscriberCount: Int { state.withLock { continuations.count } }

    /// How many records subscribers lost by falling behind.
    package var droppedCount: Int { state.withLock { dropped } }

    /// The sequence of the last record appended or delivered (0 before any).
    package var lastSequenceNumber: Int64 { state.withLock { lastSequence } }

    /// Numbers `records` after the last one and hands them to every subscriber: for a store that orders its commits
    /// itself (SQLite's one writer calls this in the commit).
    package func append(_ records: [ChangeRecord]) {
        guard !records.isEmpty else { return }
        state.withLock {
            for var record in records {
                lastSequence += 1
                record.sequence = lastSequence
                yield(record)
            }
        }
    }

    /// Hands records the database numbered (in increasing order) to every subscriber.
    package func deliver(_ records: [ChangeRecord]) {
        guard !records.isEmpty else { return }
        state.withLock {
            for record in records {
                lastSequence = max(lastSequence, record.sequence)
                yield(record)
            }
        }
    }

    /// Yields under the lock, so that every subscriber sees one order.
    private func yield(_ record: ChangeRecord) {
        for continuation in continuations.values {
            if case .dropped = continuation.yield(record) { dropped += 1 }
        }
    }
}
