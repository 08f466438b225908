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
    /// Held while records are handed out, one delivery at a time; never taken under ``state`` or by a subscription's
    /// end.
    private let delivery = Lock()
    nonisolated(unsafe) private var continuations: [Int: AsyncStream<ChangeRecord>.Continuation] = [:]
    nonisolated(unsafe) private var nextToken = 0
    nonisolated(unsafe) private var lastSequence: Int64 = 0
    nonisolated(unsafe) private var dropped = 0
    nonisolated(unsafe) private var lag: Duration = .zero
    nonisolated(unsafe) private var firstSubscription: (@Sendable () -> Void)?
    nonisolated(unsafe) private var history: ChangeHistory?
    private let bufferSize: Int

    /// - Parameters:
    ///   - bufferSize: how far a subscriber may fall behind before it loses records.
    ///   - position: the sequence before the first record ``append(_:)`` numbers. An in-process log starts from the
    ///     clock (``clockPosition()``), so that its numbers keep growing across restarts and a client's position from
    ///     before one is never taken for a later record.
    package init(bufferSize: Int = 100_000, position: Int64 = 0) {
        self.bufferSize = bufferSize
        lastSequence = position
    }

    /// Microseconds since 1970: where an in-process log's numbering starts.
    package static func clockPosition() -> Int64 {
        Timestamp.now().millisecondsSince1970 * 1_000
    }

    /// The log continues from `sequence` (a store that numbers in the database, at its start): records up to it are
    /// history that this process never delivers.
    package func begin(at sequence: Int64) {
        state.withLock {
            lastSequence = max(lastSequence, sequence)
            if let kept = history, kept.floor < lastSequence {
                history = ChangeHistory(limit: kept.limit, retention: kept.retention, floor: lastSequence)
            }
        }
    }

    /// Keeps the records delivered from now on, at most `limit` of them and none older than `retention`, for
    /// ``history(after:)``. Off until called (only LiveQuery's resumption needs it).
    package func keepHistory(limit: Int, retention: Duration) {
        state.withLock {
            guard history == nil else { return }
            history = ChangeHistory(limit: limit, retention: retention, floor: lastSequence)
        }
    }

    /// The records delivered after `position`, through the last one delivered (``lastSequenceNumber``, also
    /// returned), and whether they are all of them: `false` when the history does not reach back to `position` (not
    /// kept, or evicted), or `position` is ahead of the log (a position from another database).
    package func history(after position: Int64) -> (records: [ChangeRecord], through: Int64, complete: Bool) {
        state.withLock {
            guard let history else { return ([], lastSequence, false) }
            let (records, complete) = history.records(after: position, through: lastSequence)
            return (records, lastSequence, complete)
        }
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

    /// How long after its write the last record written or updated reached this process's log (the time between the
    /// object's `updatedAt` and its delivery): near zero on SQLite, the change-log reader's delay on PostgreSQL.
    package var lastLag: Duration { state.withLock { lag } }

    /// The sequence of the last record appended or delivered (0 before any).
    package var lastSequenceNumber: Int64 { state.withLock { lastSequence } }

    /// Numbers `records` after the last one and hands them to every subscriber: for a store that orders its commits
    /// itself (SQLite's one writer calls this in the commit).
    package func append(_ records: [ChangeRecord]) {
        guard !records.isEmpty else { return }
        publish {
            records.map { record in
                var record = record
                lastSequence += 1
                record.sequence = lastSequence
                return record
            }
        }
    }

    /// Hands records the database numbered (in increasing order) to every subscriber.
    package func deliver(_ records: [ChangeRecord]) {
        guard !records.isEmpty else { return }
        publish {
            var fresh: [ChangeRecord] = []
            for record in records where record.sequence > lastSequence {
                lastSequence = record.sequence
                fresh.append(record)
            }
            return fresh
        }
    }

    /// Takes the records `admit` answers under ``state`` (where it numbers them), keeps them in the history, and hands
    /// them out under ``delivery``.
    private func publish(_ admit: () -> [ChangeRecord]) {
        delivery.withLock {
            let (records, subscribers) = state.withLock {
                let records = admit()
                if let written = records.last(where: { $0.after != nil })?.after?.updatedAt {
                    lag = .milliseconds(max(0, Timestamp.now().millisecondsSince1970 - written.millisecondsSince1970))
                }
                if history != nil {
                    let now = ContinuousClock.now
                    for record in records { history?.keep(record, now: now) }
                }
                return (records, Array(continuations.values))
            }
            hand(records, to: subscribers)
        }
    }

    /// Yields outside ``state`` (a yield takes the waiting task's own lock, under which a cancelled subscription's
    /// `onTermination` takes ``state``: yielding under it deadlocked) and under ``delivery``, so that every subscriber
    /// still sees one order.
    private func hand(_ records: [ChangeRecord], to subscribers: [AsyncStream<ChangeRecord>.Continuation]) {
        var lost = 0
        for record in records {
            for continuation in subscribers {
                if case .dropped = continuation.yield(record) { lost += 1 }
            }
        }
        if lost > 0 { state.withLock { dropped += lost } }
    }
}
