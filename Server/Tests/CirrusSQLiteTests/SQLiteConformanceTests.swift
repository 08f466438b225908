import CirrusSQLite
import CirrusStorage
import CirrusTesting
import Testing

@Suite("The SQLite store passes the storage conformance suite")
struct SQLiteConformanceTests {
    /// Each check runs on a new database file in its own temporary directory.
    static let conformance = StorageConformance.inTemporaryDirectory { directory in
        try SQLiteStorageAdapter(path: directory + "/cirrus.sqlite")
    }

    @Test("the SQLite store behaves as the conformance check requires", arguments: StorageConformance.checks)
    func conformance(_ check: StorageCheck) async throws {
        try await ConformanceFailure.recordingIssues { try await Self.conformance.run(check) }
    }
}
