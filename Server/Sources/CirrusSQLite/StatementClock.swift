import GRDB
import GRDBSQLite

/// SQLite's statement timeout: GRDB's statement trace notes when each statement starts, and SQLite's progress handler,
/// called every ``instructionsPerCheck`` virtual-machine instructions, interrupts a statement that has run longer than
/// the limit (it fails with `SQLITE_INTERRUPT`, and a write's transaction is rolled back).
final class StatementClock {
    /// How often the progress handler looks at the clock: a check costs about as much as a few instructions.
    static let instructionsPerCheck: Int32 = 10_000

    private let limit: Duration
    private var started = ContinuousClock.now

    private init(limit: Duration) {
        self.limit = limit
    }

    /// Limits every statement `db` runs to `limit`. The clock lives as long as the connection's trace.
    static func install(on db: Database, limit: Duration) {
        let clock = StatementClock(limit: limit)
        db.trace(options: .statement) { _ in clock.started = .now }
        sqlite3_progress_handler(db.sqliteConnection, instructionsPerCheck, { context in
            guard let context else { return 0 }
            let clock = Unmanaged<StatementClock>.fromOpaque(context).takeUnretainedValue()
            return clock.started.duration(to: .now) > clock.limit ? 1 : 0
        }, Unmanaged.passUnretained(clock).toOpaque())
    }
}
