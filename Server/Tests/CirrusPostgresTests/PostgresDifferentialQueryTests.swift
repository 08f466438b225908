import CirrusPostgres
import CirrusStorage
import CirrusTesting
import Testing

/// The differential query check (CirrusTesting's ``DifferentialQueryCheck``) on PostgreSQL, each run in a new schema.
@Suite("Queries find the same objects in PostgreSQL and in the in-memory evaluator")
struct PostgresDifferentialQueryTests {
    static let check = DifferentialQueryCheck {
        let (url, schema) = try await PostgresTestDatabase.createSchema(poolSize: 4)
        return StorageConformance.Subject(store: try PostgresStorageAdapter(url: url, connectionWait: PostgresTestDatabase.connectionWait)) { try await PostgresTestDatabase.dropSchema(schema) }
    }

    @Test("generated conditions select the same objects in SQL and in memory", arguments: [UInt64(1), 2, 3])
    func differential(seed: UInt64) async throws {
        let outcome = try await Self.check.run(seed: seed)
        for mismatch in outcome.mismatches { Issue.record(Comment(rawValue: mismatch)) }
        let conditions = DifferentialQueryCheck.conditionCount
        #expect(outcome.selective * 3 > conditions, "only \(outcome.selective) of \(conditions) conditions selected some but not all objects")
    }

    @Test("numbers beyond 2^53 and -0.0 compare the same in SQL and in memory", arguments: DifferentialQueryCheck.edgeNumbers)
    func edgeNumber(_ operand: JSON) async throws {
        for mismatch in try await Self.check.edgeMismatches(operand, among: DifferentialQueryCheck.edgeNumbers) {
            Issue.record(Comment(rawValue: mismatch))
        }
    }

    /// JSONB cannot hold a NUL character, so PostgreSQL refuses such strings (``StorageError/unsupportedValue(_:)``)
    /// instead of comparing them; the SQLite run of this check compares them (and knows it cuts them short).
    @Test("strings with a NUL character are refused as unsupported values, so no query can compare them wrongly")
    func nulStrings() async throws {
        for value in DifferentialQueryCheck.nulStrings where JSONWriter.string(value).contains("\\u0000") {
            await #expect(throws: StorageError.self) { _ = try await Self.check.edgeMismatches(value, among: [value]) }
        }
    }
}
