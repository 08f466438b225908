import CirrusModel
import CirrusSQL
import CirrusSQLAdapter
import CirrusStorage
import PostgresNIO

/// Queries on a streaming replica, without ever reading behind a committed write.
///
/// Before a query goes to the replica, the adapter reads the primary's current WAL position, and the replica runs the
/// query only if it has replayed up to that position, in the same connection; otherwise the primary runs it. Every
/// write committed before the query started, through any instance, is therefore visible: each session reads its own
/// writes (and everyone else's). Gets by id, sessions, codes and accounts always read the primary.
extension PostgresStorageAdapter {
    /// Runs a query on the replica when it has caught up with the primary, else on the primary.
    func query<T: Sendable>(_ body: @escaping @Sendable (PostgresConnection) async throws -> T) async throws -> T {
        guard let replica else { return try await read(body) }
        guard let position = try await read({ try await self.rows($0, "SELECT pg_current_wal_lsn()::text").first?.first?.text }) else {
            return try await read(body)
        }
        do {
            let answer: T? = try await withConnection(from: replica) { connection in
                let caughtUp = try await self.rows(connection, "SELECT COALESCE(pg_last_wal_replay_lsn() >= \(bind: .text(position))::pg_lsn, FALSE)")
                guard caughtUp.first?.first == .int(1) else { return nil }
                return try await body(connection)
            }
            if let answer { return answer }
        } catch let error as PSQLError {
            logger.warning("the replica failed; the primary answers", metadata: ["error": "\(Self.describe(error))"])
        } catch let error as StorageError {
            logger.warning("the replica failed; the primary answers", metadata: ["error": "\(error)"])
        }
        return try await read(body)
    }
}
