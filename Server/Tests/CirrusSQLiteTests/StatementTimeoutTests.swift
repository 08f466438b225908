import CirrusModel
import CirrusSQL
import CirrusSQLStore
import CirrusTesting
import Foundation
import GRDB
@testable import CirrusSQLite
import Testing

@Suite("SQLite statement timeout")
struct SQLiteStatementTimeoutTests {
    /// A statement that never ends on its own.
    static let endless = "WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n) SELECT count(*) FROM n"

    @Test("a statement running past the timeout is interrupted, and the connection serves the next one")
    func interrupts() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let store = try SQLiteStorageAdapter(path: directory.path + "/timeout.sqlite", statementTimeout: .milliseconds(300))
        try await store.prepare()
        let start = ContinuousClock.now
        await #expect(throws: DatabaseError.self) {
            try await store.driver.pool.read { db in try Int.fetchOne(db, sql: Self.endless) }
        }
        #expect(ContinuousClock.now - start < .seconds(10))
        // Through the store's statements it is the client's error, as when the request's deadline passes.
        await #expect(throws: APIError.statementTimeout) { () async throws -> Void in
            _ = try await store.rows(SQLFragment(stringLiteral: Self.endless)).count
        }
        // A short statement right after it runs: the clock starts again with each statement.
        #expect(try await store.driver.pool.read { db in try Int.fetchOne(db, sql: "SELECT 1") } == 1)
        try await store.close()
    }

    @Test("without a timeout a long statement runs to its end")
    func noTimeout() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let store = try SQLiteStorageAdapter(path: directory.path + "/none.sqlite", statementTimeout: nil)
        try await store.prepare()
        let bounded = "WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n WHERE x < 300000) SELECT count(*) FROM n"
        #expect(try await store.driver.pool.read { db in try Int.fetchOne(db, sql: bounded) } == 300_000)
        try await store.close()
    }
}
