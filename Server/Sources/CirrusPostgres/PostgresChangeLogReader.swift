import CirrusModel
import CirrusSQL
import CirrusSQLStore
import CirrusStorage
import Logging

/// Reads the change-log table into this instance's ``ChangeLog``, in sequence order, whenever a commit notifies
/// (``poke()``) and at least once a second; prunes records older than the retention window once a minute.
///
/// Sequence numbers are taken when a transaction appends, not when it commits, so a record can become visible after
/// a later one: a missing number (a gap) may still fill. The reader stops at a gap and remembers the snapshot's
/// `xmax` when it first saw it. The transaction holding the missing number had its id before that snapshot was
/// taken (it wrote the object before appending, and the later record committed before the snapshot), so once the
/// oldest running transaction (`xmin`) is past that `xmax`, that transaction has ended: the number either became
/// visible or never will (it rolled back, or the record was pruned), and the reader moves on. Nothing is missed and
/// nothing waits on a timer.
final class PostgresChangeLogReader: Sendable {
    private let retention: Duration
    private let signal: AsyncStream<Void>
    private let signalContinuation: AsyncStream<Void>.Continuation
    private let state = Lock()
    nonisolated(unsafe) private var last: Int64?
    nonisolated(unsafe) private var gap: (sequence: Int64, horizon: UInt64)?

    /// How many records one read takes at most.
    static let pageSize = 500

    init(retention: Duration) {
        self.retention = retention
        (signal, signalContinuation) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
    }

    /// Reads from after `sequence` on (the store's start, before any write of this instance).
    func begin(at sequence: Int64) {
        state.withLock { last = sequence }
    }

    /// Asks for a read soon (a commit appended records, or listening resumed).
    func poke() {
        signalContinuation.yield()
    }

    /// Reads whenever poked, and on a timer: every second, every 20 ms while a gap is open, pruning once a minute.
    func run(on driver: PostgresDriver) async {
        let ticker = Task { [self] in
            var ticks = 0
            while !Task.isCancelled {
                let gapOpen = state.withLock { gap != nil }
                try? await Task.sleep(for: gapOpen ? .milliseconds(20) : .seconds(1))
                ticks += gapOpen ? 0 : 1
                if ticks >= 60 {
                    ticks = 0
                    await prune(driver)
                }
                poke()
            }
        }
        defer { ticker.cancel() }
        await withTaskCancellationHandler {
            for await _ in signal {
                do {
                    try await readAvailable(driver)
                } catch {
                    if !Task.isCancelled { driver.logger.warning("reading the change log failed", metadata: ["error": "\(driver.describe(error))"]) }
                }
            }
        } onCancel: {
            signalContinuation.finish()
        }
    }

    /// Delivers every record after the last one delivered up to the first gap that may still fill.
    private func readAvailable(_ driver: PostgresDriver) async throws {
        guard let start = state.withLock({ last }) else { return }
        var cursor = start
        while true {
            let rows = try await driver.collectRows(PostgresDialect.changes(after: cursor, limit: Self.pageSize))
            var records: [ChangeRecord] = []
            var blocked = false
            for row in rows {
                let record = try ChangeLogCodec.record(row)
                if record.sequence != cursor + 1, !gapClosed(at: cursor + 1, row: row) {
                    blocked = true
                    break
                }
                records.append(record)
                cursor = record.sequence
            }
            state.withLock {
                last = cursor
                if !blocked { gap = nil }
            }
            driver.changeLog.deliver(records)
            if blocked || rows.count < Self.pageSize { return }
        }
    }

    /// Whether the gap at `sequence` can no longer fill, judged by the snapshot bounds `row` carries; opens the gap
    /// (remembering the snapshot's `xmax`) when it is new.
    private func gapClosed(at sequence: Int64, row: [SQLValue]) -> Bool {
        guard row.count >= 9, let xmin = row[7].text.flatMap(UInt64.init), let xmax = row[8].text.flatMap(UInt64.init) else { return true }
        return state.withLock {
            guard let open = gap, open.sequence == sequence else {
                gap = (sequence, xmax)
                return false
            }
            if xmin >= open.horizon {
                gap = nil
                return true
            }
            return false
        }
    }

    private func prune(_ driver: PostgresDriver) async {
        let (seconds, attoseconds) = retention.components
        let cutoff = Timestamp(millisecondsSince1970: Timestamp.now().millisecondsSince1970 - seconds * 1_000 - attoseconds / 1_000_000_000_000_000)
        do {
            try await driver.transaction { try await $0.execute(PostgresDialect.pruneChanges(before: cutoff)) }
        } catch {
            driver.logger.warning("pruning the change log failed", metadata: ["error": "\(error)"])
        }
    }
}

extension PostgresDriver {
    /// The rows of a statement, on a pool connection.
    func collectRows(_ fragment: SQLFragment) async throws -> [[SQLValue]] {
        let outcome = RowsBox()
        try await read(replica: false, lookup: false) { outcome.rows = try await $0.rows(fragment) }
        return outcome.rows
    }
}

private final class RowsBox: @unchecked Sendable {
    var rows: [[SQLValue]] = []
}
