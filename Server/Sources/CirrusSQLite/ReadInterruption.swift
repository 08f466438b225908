import GRDB
import GRDBSQLite
import Synchronization

/// Interrupts a read's statement when the task that waits for it is cancelled (a request past its deadline, a client
/// gone): `sqlite3_interrupt` on the reader connection while the read holds it, and never once it has given it back.
final class ReadInterruption: Sendable {
    private struct State: @unchecked Sendable {
        /// The connection while the read holds it.
        var connection: OpaquePointer?
        var cancelled = false
    }

    private let state = Mutex(State())

    /// The read holds `connection` from now on.
    /// - Throws: `CancellationError` when the task was cancelled before the read began.
    func begin(_ connection: OpaquePointer?) throws {
        let cancelled = state.withLock { state in
            state.connection = connection
            return state.cancelled
        }
        if cancelled { throw CancellationError() }
    }

    /// The read gave its connection back.
    func end() {
        state.withLock { $0.connection = nil }
    }

    /// The task was cancelled: interrupts the statement running, if the read holds its connection.
    func fire() {
        state.withLock { state in
            state.cancelled = true
            if let connection = state.connection { sqlite3_interrupt(connection) }
        }
    }
}
