import CirrusPostgres
import CirrusStorage
import CirrusTesting
import Testing

@Suite("The PostgreSQL store passes the storage conformance suite")
struct PostgresConformanceTests {
    /// Each check runs in a new schema of the test server, dropped afterwards.
    static let conformance = StorageConformance {
        let (url, schema) = try await PostgresTestDatabase.createSchema(poolSize: 4)
        return StorageConformance.Subject(store: try PostgresStorageAdapter(url: url)) { try await PostgresTestDatabase.dropSchema(schema) }
    }

    @Test("the PostgreSQL store behaves as the conformance check requires", arguments: StorageConformance.checks)
    func conformance(_ check: StorageCheck) async throws {
        do {
            try await Self.conformance.run(check)
        } catch let failure as ConformanceFailure {
            Issue.record(
                Comment(rawValue: failure.message),
                sourceLocation: SourceLocation(fileID: failure.fileID, filePath: failure.filePath, line: failure.line, column: failure.column)
            )
        }
    }
}
