import GRDB
import Synchronization

/// The connections lookups run on (``SQLiteDriver/read(replica:lookup:_:)``): read-only connections to the same file,
/// each used by one thread at a time, outside GRDB's reader pool, so a lookup never queues behind long queries.
///
/// At most as many as the threads that may run lookups at once (Swift's concurrency pool has one per core), opened
/// when first needed; a lookup that finds none free (another thread ran it, a lookup inside another) takes the pool's
/// way instead, as it does when a connection cannot be opened or the file is busy.
final class LookupConnections: Sendable {
    private struct State {
        var free: [DatabaseQueue] = []
        var opened = 0
        var closed = false
    }

    private let state = Mutex(State())
    private let path: String
    private let limit: Int
    private let configuration: Configuration

    init(path: String, limit: Int, configuration: Configuration) {
        self.path = path
        self.limit = limit
        self.configuration = configuration
    }

    /// A free connection, now this thread's until ``give(_:)``; `nil` when every one is in use.
    func take() -> DatabaseQueue? {
        enum Next { case connection(DatabaseQueue), open, none }
        let next = state.withLock { state -> Next in
            if let connection = state.free.popLast() { return .connection(connection) }
            guard !state.closed, state.opened < limit else { return .none }
            state.opened += 1
            return .open
        }
        switch next {
        case .connection(let connection): return connection
        case .none: return nil
        case .open:
            if let connection = try? DatabaseQueue(path: path, configuration: configuration) { return connection }
            state.withLock { $0.opened -= 1 }
            return nil
        }
    }

    func give(_ connection: DatabaseQueue) {
        let closed = state.withLock { state in
            if !state.closed { state.free.append(connection) }
            return state.closed
        }
        if closed { try? connection.close() }
    }

    /// Closes the free connections; those in use close when they are given back.
    func close() {
        let connections = state.withLock { state in
            state.closed = true
            defer { state.free.removeAll() }
            return state.free
        }
        for connection in connections { try? connection.close() }
    }
}
