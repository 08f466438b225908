import CirrusSQLite
import CirrusSQLStore
import CirrusStorage
import CirrusTesting
import Testing

@Suite("The SQLite store migrates accounts of older databases")
struct SQLiteAccountMigrationTests {
    @Test("links are filled from existing users; e-mail addresses held in several cases postpone case-insensitive uniqueness without failing")
    func migration() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try await ConformanceFailure.recordingIssues {
            try await AccountMigrationScenario.run(
                open: { try SQLiteStorageAdapter(path: directory.path + "/cirrus.sqlite") },
                execute: { store, sql in try await (store as? SQLiteStorageAdapter)?.execute(rawSQL: sql) }
            )
        }
    }
}
