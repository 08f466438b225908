package import CirrusStorage

extension SQLStore {
    package func perform(_ commands: [WriteCommand], atomically: Bool) async throws -> [Result<WriteResult, StorageError>] {
        do {
            let (results, created) = try await observations.observe(.transaction) { try await collect(driver.transaction) { session in
                let transaction = WriteTransaction(store: self, session: session)
                // One command, or an all-or-nothing batch, needs no savepoints: a failure rolls the whole transaction
                // back (a single write is BEGIN, the statement, COMMIT: three round trips instead of five).
                let alone = atomically || commands.count == 1
                var results: [Result<WriteResult, StorageError>] = []
                var failed = false
                for command in commands {
                    if failed {
                        results.append(.failure(.rolledBack))
                        continue
                    }
                    let result = alone ? await transaction.run(command) : try await transaction.runInSavepoint(command)
                    if case .failure = result, alone { failed = true }
                    results.append(result)
                }
                if failed { throw AtomicBatchFailed(results: results) }
                if !transaction.changes.isEmpty { try await self.driver.log(transaction.changes, in: session) }
                return (results, transaction.createdTables)
            } }
            for (className, table) in created { tables.record(className: className, table: table) }
            return results
        } catch let failure as AtomicBatchFailed {
            return failure.results.map { result in
                if case .success = result { return .failure(.rolledBack) }
                return result
            }
        } catch {
            throw failure(error)
        }
    }
}

/// Thrown inside the transaction so that it rolls back.
private struct AtomicBatchFailed: Error {
    let results: [Result<WriteResult, StorageError>]
}
