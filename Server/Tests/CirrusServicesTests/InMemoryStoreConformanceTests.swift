import CirrusTesting
import Testing

@Suite("The in-memory store passes the storage conformance suite")
struct InMemoryStoreConformanceTests {
    /// Each check runs on a new, empty store.
    static let conformance = StorageConformance(makeStore: { InMemoryStore() }, cleanup: { _ in })

    @Test("the in-memory store behaves as the conformance check requires", arguments: StorageConformance.checks)
    func conformance(_ check: StorageCheck) async throws {
        try await ConformanceFailure.recordingIssues { try await Self.conformance.run(check) }
    }
}
