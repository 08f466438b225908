import CirrusModel
import CirrusSQL
import CirrusSQLStore
@testable import CirrusPostgres
import CirrusStorage
import CirrusTesting
import Foundation
import PostgresNIO
import Testing

@Suite("PostgreSQL statement timeout and lost connections")
struct PostgresResilienceTests {
    @Test("a statement running past the timeout is cancelled by PostgreSQL")
    func statementTimeout() async throws {
        try await PostgresTestDatabase.withSchema { url in
            // The migrations run without the short limit: on a loaded machine their transaction may pause longer
            // than half a second between statements, and PostgreSQL would end the session for idling in it.
            let migrating = try PostgresStorageAdapter(url: url, connectionWait: PostgresTestDatabase.connectionWait)
            try await migrating.prepare()
            try await migrating.close()
            let store = try PostgresStorageAdapter(url: url, statementTimeout: .milliseconds(500), connectionWait: PostgresTestDatabase.connectionWait)
            let start = ContinuousClock.now
            // The client's error, as when the request's deadline passes (503, code 124), not a database failure.
            await #expect(throws: APIError.statementTimeout) {
                _ = try await store.rows("SELECT pg_sleep(30)")
            }
            // It hung for ever before; the bound leaves room for a machine running every suite at once.
            #expect(ContinuousClock.now - start < .seconds(25))
            _ = try await store.rows("SELECT 1")
            try await store.close()
        }
    }

    @Test("work on a connection that is terminated fails at once, and the next work gets a new connection", .timeLimit(.minutes(5)))
    func lostConnection() async throws {
        try await PostgresTestDatabase.withSchema { url in
            let store = try PostgresStorageAdapter(url: url, connectionWait: PostgresTestDatabase.connectionWait)
            try await store.prepare()
            let start = ContinuousClock.now
            await #expect(throws: PostgresDriver.connectionLost) {
                try await store.driver.withConnection { connection in
                    // The server ends this very session, as a restart does; a query written to the closed channel
                    // afterwards is dropped by postgres-nio, and never answered.
                    let session = PostgresSession(connection, store.driver)
                    _ = try? await session.rows("SELECT pg_terminate_backend(pg_backend_pid())")
                    try await connection.closeFuture.get()
                    _ = try await session.rows("SELECT 1")
                }
            }
            // It hung for ever before; the bound leaves room for a machine running every suite at once.
            #expect(ContinuousClock.now - start < .seconds(60))
            _ = try await store.rows("SELECT 1")
            try await store.close()
        }
    }

    @Test("waiting for a free connection is bounded")
    func connectionWait() async throws {
        try await PostgresTestDatabase.withSchema(poolSize: 1) { url in
            let store = try PostgresStorageAdapter(url: url, connectionWait: .milliseconds(300))
            // The one connection is held by work that waited as long as it needed for it (opening a connection on
            // a loaded machine can take longer than the wait under test).
            let (held, holding) = AsyncStream<Void>.makeStream()
            let holder = Task {
                try await store.driver.withConnection(waiting: PostgresTestDatabase.connectionWait) { connection in
                    holding.yield()
                    try await PostgresSession(connection, store.driver).execute("SELECT pg_sleep(10)")
                }
            }
            for await _ in held { break }
            let start = ContinuousClock.now
            await #expect(throws: PostgresDriver.noFreeConnection(within: .milliseconds(300))) {
                _ = try await store.rows("SELECT 1")
            }
            #expect(ContinuousClock.now - start < .seconds(8))
            try await holder.value
            try await store.close()
        }
    }
}
