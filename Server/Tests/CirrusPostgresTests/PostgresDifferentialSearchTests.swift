import CirrusPostgres
import CirrusStorage
import CirrusTesting
import Testing

/// The differential search check (CirrusTesting's ``DifferentialSearchCheck``) on PostgreSQL, each run in a new schema.
@Suite("Searches find the same objects in PostgreSQL's index and in the model's matcher")
struct PostgresDifferentialSearchTests {
    static let check = DifferentialSearchCheck {
        let (url, schema) = try await PostgresTestDatabase.createSchema(poolSize: 4)
        return StorageConformance.Subject(store: try PostgresStorageAdapter(url: url, connectionWait: PostgresTestDatabase.connectionWait)) { try await PostgresTestDatabase.dropSchema(schema) }
    }

    @Test("generated searches over generated Chinese, Japanese, Korean and English text", arguments: [UInt64(1), 2])
    func differential(seed: UInt64) async throws {
        let outcome = try await Self.check.run(seed: seed)
        for mismatch in outcome.mismatches { Issue.record(Comment(rawValue: mismatch)) }
        #expect(outcome.selective * 2 > DifferentialSearchCheck.searchCount, "only \(outcome.selective) searches found some but not all objects")
    }
}
