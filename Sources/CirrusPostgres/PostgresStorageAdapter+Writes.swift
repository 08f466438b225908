import CirrusModel
import CirrusSQL
import CirrusSQLAdapter
import CirrusStorage
import PostgresNIO

extension PostgresStorageAdapter {
    public func perform(_ commands: [WriteCommand], atomically: Bool) async throws -> [Result<WriteResult, StorageError>] {
        do {
            let (results, created) = try await writing { connection in
                let session = PostgresWriteSession(adapter: self, connection: connection)
                var results: [Result<WriteResult, StorageError>] = []
                var failed = false
                // One command, or an all-or-nothing batch, needs no savepoints: a failure rolls the whole transaction
                // back (a single write is BEGIN, the statement, COMMIT: three round trips instead of five).
                if commands.count == 1 {
                    let result = await session.runAlone(commands[0])
                    if case .failure = result { throw AtomicBatchFailed(results: [result]) }
                    for notices in self.objectNotices(commands, [result]) { try await self.execute(connection, notices) }
                    return ([result], session.createdTables)
                }
                for command in commands {
                    if failed {
                        results.append(.failure(.rolledBack))
                        continue
                    }
                    let result = atomically ? await session.runAlone(command) : await session.runInSavepoint(command)
                    if case .failure = result, atomically { failed = true }
                    results.append(result)
                }
                if failed { throw AtomicBatchFailed(results: results) }
                for notices in self.objectNotices(commands, results) { try await self.execute(connection, notices) }
                return (results, session.createdTables)
            }
            for (className, table) in created { tables.record(className: className, table: table) }
            return results
        } catch let failure as AtomicBatchFailed {
            return failure.results.map { result in
                if case .success = result { return .failure(.rolledBack) }
                return result
            }
        }
    }
}

/// Thrown inside the transaction so that it rolls back.
private struct AtomicBatchFailed: Error {
    let results: [Result<WriteResult, StorageError>]
}
