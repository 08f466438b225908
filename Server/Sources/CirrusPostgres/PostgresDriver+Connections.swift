import CirrusConcurrency
import CirrusModel
import CirrusStorage
import NIOCore
import PostgresNIO

/// Leasing pool connections so that the database going away fails the work on them instead of hanging it.
///
/// postgres-nio writes a query to its connection's channel without a promise for the write: a query sent on a
/// connection that has just closed (PostgreSQL restarted) is dropped, and its result never arrives. Work leased a
/// connection runs in a task of its own, and the caller waits for the first of its result, the connection's close
/// and (before a connection is leased) the wait timeout: a dropped query leaves its task behind, not its caller.
extension PostgresDriver {
    /// Runs `body` on a connection of `pool` (the primary's by default).
    /// - Parameter wait: how long to wait for a connection; ``connectionWait`` by default.
    /// - Throws: ``noFreeConnection(within:)`` when no connection is free within the wait,
    ///   ``connectionLost`` when the connection is lost; what `body` throws.
    func withConnection<T: Sendable>(
        from pool: PostgresClient? = nil, waiting wait: Duration? = nil, _ body: @escaping @Sendable (PostgresConnection) async throws -> T
    ) async throws -> T {
        let client = pool ?? self.client
        let outcome = FirstOutcome<T>()
        let leased = FirstOutcome<Void>()
        let task = Task {
            do {
                let value = try await client.withConnection { connection in
                    // A connection that comes after the wait timed out is not used: the caller has its answer.
                    guard leased.decide(.success(())) else { throw CancellationError() }
                    let watching = self.watch.enter(connection) { outcome.decide(.failure(Self.connectionLost)) }
                    defer { self.watch.leave(connection, watching) }
                    return try await body(connection)
                }
                outcome.decide(.success(value))
            } catch {
                outcome.decide(.failure(error))
            }
        }
        let wait = wait ?? connectionWait
        let entry = DeadlineWatch.shared.add(wait) {
            guard leased.decide(.failure(CancellationError())) else { return }
            if outcome.decide(.failure(Self.noFreeConnection(within: wait))) { task.cancel() }
        }
        defer { DeadlineWatch.shared.remove(entry) }
        return try await outcome.value { task.cancel() }
    }

    static let connectionLost = StorageError.database("the database connection was lost")

    static func noFreeConnection(within wait: Duration) -> StorageError {
        StorageError.database("no database connection became free within \(wait)")
    }
}

/// The connections work is running on, and what to do when one of them closes. Each connection is watched once,
/// however many leases it serves (a callback per lease on its close future would pile up on a long-lived connection).
final class ConnectionWatch: @unchecked Sendable {
    private let lock = Lock()
    private var watched: [ObjectIdentifier: [UInt64: @Sendable () -> Void]] = [:]
    private var nextID: UInt64 = 0

    /// Calls `onLoss` if `connection` closes before ``leave(_:_:)``; at once if it is closed already.
    func enter(_ connection: PostgresConnection, onLoss: @escaping @Sendable () -> Void) -> UInt64 {
        let key = ObjectIdentifier(connection)
        let (id, isNew) = lock.withLock { () -> (UInt64, Bool) in
            nextID += 1
            let isNew = watched[key] == nil
            watched[key, default: [:]][nextID] = onLoss
            return (nextID, isNew)
        }
        // A close future that has completed calls back at once.
        if isNew { connection.closeFuture.whenComplete { _ in self.lost(key) } }
        return id
    }

    /// The work on `connection` is over.
    func leave(_ connection: PostgresConnection, _ id: UInt64) {
        _ = lock.withLock { watched[ObjectIdentifier(connection)]?.removeValue(forKey: id) }
    }

    private func lost(_ key: ObjectIdentifier) {
        let waiting = lock.withLock { watched.removeValue(forKey: key) } ?? [:]
        for onLoss in waiting.values { onLoss() }
    }
}
