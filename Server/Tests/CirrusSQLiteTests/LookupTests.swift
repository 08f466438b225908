import CirrusModel
import CirrusSQL
import CirrusSQLStore
import CirrusStorage
import CirrusTesting
import Foundation
@testable import CirrusSQLite
import Synchronization
import Testing

/// Lookups (rows by key) run on the calling thread on connections of their own; queries run on GRDB's reader pool.
@Suite("SQLite lookups beside long queries", .timeLimit(.minutes(2)))
struct LookupTests {
    static let endless = SQLiteStatementTimeoutTests.endless

    /// Counts the reads running now.
    final class Running: StoreObserver {
        let reads = Atomic<Int>(0)
        func started(_ operation: StoreOperation) { if operation == .read { reads.add(1, ordering: .relaxed) } }
        func finished(_ operation: StoreOperation, after duration: Duration) { if operation == .read { reads.subtract(1, ordering: .relaxed) } }
    }

    @Test("a lookup is answered while every reader of the pool runs an endless query, which cancelling then stops")
    func lookupBesideQueries() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let readers = 4
        let store = try SQLiteStorageAdapter(path: directory.path + "/lookups.sqlite", readers: readers, statementTimeout: nil)
        try await store.prepare()
        let running = Running()
        store.observation?.set(running)
        let queries = (0..<readers).map { _ in
            Task { try await store.rows(SQLFragment(stringLiteral: Self.endless)) }
        }
        while running.reads.load(ordering: .relaxed) < readers { try await Task.sleep(for: .milliseconds(20)) }
        // Every reader of the pool is busy, and stays so: the lookups below do not wait for one.
        for _ in 0..<20 {
            #expect(try await store.session(token: "no-such-token") == nil)
            #expect(try await store.loadSchema(of: "NoSuchClass") == nil)
        }
        #expect(running.reads.load(ordering: .relaxed) == readers)
        for query in queries { query.cancel() }
        for query in queries { _ = try? await query.value }
        #expect(running.reads.load(ordering: .relaxed) == 0)
        try await store.close()
    }

    @Test("a cancelled lookup's statement is interrupted, and its connection serves the next lookup")
    func cancelledLookup() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let store = try SQLiteStorageAdapter(path: directory.path + "/cancel.sqlite", statementTimeout: nil)
        try await store.prepare()
        let started = Atomic<Bool>(false)
        let lookup = Task {
            try await store.driver.read(replica: false, lookup: true) { session in
                started.store(true, ordering: .relaxed)
                _ = try await session.rows(SQLFragment(stringLiteral: Self.endless))
            }
        }
        while !started.load(ordering: .relaxed) { try await Task.sleep(for: .milliseconds(10)) }
        try await Task.sleep(for: .milliseconds(100))
        lookup.cancel()
        await #expect(throws: (any Error).self) { try await lookup.value }
        #expect(try await store.session(token: "no-such-token") == nil)
        try await store.close()
    }
}
