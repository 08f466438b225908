import CirrusSQL
import CirrusStorage
import PostgresNIO

/// Queries on a streaming replica, without ever reading behind a committed write.
///
/// Before a query goes to the replica, the driver reads the primary's current WAL position, and the replica runs the
/// query only if it has replayed up to that position, in the same connection; otherwise the primary runs it. Every
/// write committed before the query started, through any instance, is therefore visible: each session reads its own
/// writes (and everyone else's). Gets by id, sessions, codes and accounts always read the primary.
extension PostgresDriver {
    /// Runs a query on the replica when it has caught up with the primary, else on the primary.
    func fromCaughtUpReplica(_ body: @escaping @Sendable (PostgresSession) async throws -> Void) async throws {
        let primary = { @Sendable in try await self.withConnection { try await body(PostgresSession($0, self)) } }
        guard let replica,
            let position = try await withConnection({ try await PostgresSession($0, self).rows(PostgresDialect.walPosition).first?.first?.text })
        else { return try await primary() }
        do {
            let answered = try await withConnection(from: replica) { connection in
                let session = PostgresSession(connection, self)
                guard try await session.rows(PostgresDialect.hasReplayed(position)).first?.first == .int(1) else { return false }
                try await body(session)
                return true
            }
            if answered { return }
        } catch let error as PSQLError {
            logger.warning("the replica failed; the primary answers", metadata: ["error": "\(describe(error))"])
        } catch let error as StorageError {
            logger.warning("the replica failed; the primary answers", metadata: ["error": "\(error)"])
        }
        try await primary()
    }
}
