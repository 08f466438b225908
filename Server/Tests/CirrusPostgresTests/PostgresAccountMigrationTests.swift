import CirrusPostgres
import CirrusSQLStore
import CirrusStorage
import CirrusTesting
import Testing

@Suite("The PostgreSQL store migrates accounts of older databases")
struct PostgresAccountMigrationTests {
    @Test("links are filled from existing users; e-mail addresses held in several cases postpone case-insensitive uniqueness without failing")
    func migration() async throws {
        try await PostgresTestDatabase.withSchema(poolSize: 2) { url in
            try await ConformanceFailure.recordingIssues {
                try await AccountMigrationScenario.run(
                    open: { try PostgresStorageAdapter(url: url, connectionWait: PostgresTestDatabase.connectionWait) },
                    execute: { store, sql in try await (store as? PostgresStorageAdapter)?.execute(rawSQL: sql) }
                )
            }
        }
    }
}
