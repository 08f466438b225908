import CirrusSQLite
import CirrusStorage
import CirrusTesting
import Testing

/// The differential search check (CirrusTesting's ``DifferentialSearchCheck``) on SQLite files.
@Suite("Searches find the same objects in SQLite's index and in the model's matcher")
struct DifferentialSearchTests {
    static let check = DifferentialSearchCheck {
        let directory = try TemporaryDirectory()
        return StorageConformance.Subject(store: try SQLiteStorageAdapter(path: directory.path + "/cirrus.sqlite")) { directory.remove() }
    }

    @Test("generated searches over generated Chinese, Japanese, Korean and English text", arguments: [UInt64(1), 2])
    func differential(seed: UInt64) async throws {
        let outcome = try await Self.check.run(seed: seed)
        for mismatch in outcome.mismatches { Issue.record(Comment(rawValue: mismatch)) }
        #expect(outcome.selective * 2 > DifferentialSearchCheck.searchCount, "only \(outcome.selective) searches found some but not all objects")
    }
}
