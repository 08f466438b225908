import Foundation
import Logging
import PostgresNIO

/// A PostgreSQL server for tests, named by `CIRRUS_TEST_POSTGRES_URL` (`scripts/test` starts one on loopback and
/// sets it). Each test gets its own schema, so tests run in parallel on one database and leave nothing behind.
package enum PostgresTestDatabase {
    /// The environment variable naming the test server.
    package static let variable = "CIRRUS_TEST_POSTGRES_URL"

    /// How long the tests' stores wait for one of their pool connections: many tests run at once on a loaded machine,
    /// with 2 connections a schema, so the production default (10 s) would fail work that is only slow.
    package static let connectionWait: Duration = .seconds(600)

    /// How long the tests' stores wait for their first connection (`connect_timeout`): with hundreds of tests
    /// starting at once on two cores, the production default (15 s) failed stores that were only slow to start.
    package static let connectTimeoutSeconds = 600

    /// The test server's URL.
    /// - Throws: when the variable is not set, with how to get a server.
    package static func url() throws -> String {
        guard let url = ProcessInfo.processInfo.environment[variable], !url.isEmpty else {
            throw PostgresTestError(
                "\(variable) is not set: the PostgreSQL tests need a server. Run scripts/test, which starts one on loopback, "
                    + "or set \(variable)=postgres://user@127.0.0.1:5432/database."
            )
        }
        return url
    }

    /// Runs `body` with the URL of a new, empty schema on the test server (as `search_path`), then drops the schema.
    package static func withSchema<T: Sendable>(poolSize: Int = 2, _ body: @Sendable (_ url: String) async throws -> T) async throws -> T {
        let (url, schema) = try await createSchema(poolSize: poolSize)
        do {
            let result = try await body(url)
            try await dropSchema(schema)
            return result
        } catch {
            try? await dropSchema(schema)
            throw error
        }
    }

    /// Creates a schema and returns a URL whose connections use it, at most `poolSize` at a time (many tests run
    /// at once against one server), waiting ``connectTimeoutSeconds`` for the first, and its name (for
    /// ``dropSchema(_:)``).
    package static func createSchema(poolSize: Int = 2) async throws -> (url: String, schema: String) {
        let base = try url()
        await schemas.acquire()
        let schema = "t_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased().prefix(20)
        do {
            try await administer("CREATE SCHEMA \(schema)")
        } catch {
            await schemas.release()
            throw error
        }
        let separator = base.contains("?") ? "&" : "?"
        return (base + separator + "search_path=" + schema + "&pool_size=\(poolSize)&connect_timeout=\(connectTimeoutSeconds)", String(schema))
    }

    /// Drops a schema ``createSchema()`` made, with everything in it.
    package static func dropSchema(_ schema: String) async throws {
        do {
            try await administer("DROP SCHEMA IF EXISTS \(schema) CASCADE")
        } catch {
            await schemas.release()
            throw error
        }
        await schemas.release()
    }

    /// At most this many schemas (test stores) at once: Swift Testing runs every test case concurrently, which would
    /// open more connections than a test server allows (each store has a small pool).
    static let schemas = AsyncSemaphore(permits: 24)

    /// Runs one statement on the test server with a short-lived connection.
    static func administer(_ sql: String) async throws {
        _ = try await value(of: sql, at: try url())
    }

    /// The test server's streaming replica (`CIRRUS_TEST_POSTGRES_REPLICA_URL`, which scripts/test sets).
    /// - Throws: when the variable is not set.
    package static func replicaURL() throws -> String {
        guard let url = ProcessInfo.processInfo.environment[replicaVariable], !url.isEmpty else {
            throw PostgresTestError("\(replicaVariable) is not set: the replica tests need a streaming replica of the test server. Run scripts/test, which starts one.")
        }
        return url
    }

    package static let replicaVariable = "CIRRUS_TEST_POSTGRES_REPLICA_URL"

    /// The first column of the first row `sql` returns on the server at `url`, as text, with a short-lived connection.
    @discardableResult
    package static func value(of sql: String, at url: String) async throws -> String? {
        let configuration = try PostgresURLParts(url)
        let logger = Logger(label: "cirrus.tests.postgres")
        var settings = PostgresConnection.Configuration(host: configuration.host, port: configuration.port, username: configuration.user,
            password: configuration.password, database: configuration.database, tls: .disable)
        settings.options.connectTimeout = .seconds(Int64(connectTimeoutSeconds))
        let connection = try await PostgresConnection.connect(configuration: settings, id: 1, logger: logger)
        do {
            var first: String?
            for try await row in try await connection.query(PostgresQuery(unsafeSQL: sql), logger: logger) where first == nil {
                first = try? row.makeRandomAccess()[0].decode(String.self)
            }
            try await connection.close()
            return first
        } catch {
            try? await connection.close()
            throw error
        }
    }
}

/// The parts of a test server URL.
struct PostgresURLParts {
    let host: String
    let port: Int
    let user: String
    let password: String?
    let database: String

    init(_ text: String) throws {
        guard let components = URLComponents(string: text), let user = components.user else { throw PostgresTestError("Bad test URL \(text)") }
        host = components.host ?? "127.0.0.1"
        port = components.port ?? 5432
        self.user = user
        password = components.password
        database = String(components.path.drop { $0 == "/" })
    }
}

/// Why the PostgreSQL tests cannot run.
package struct PostgresTestError: Error, CustomStringConvertible {
    package let description: String

    package init(_ description: String) {
        self.description = description
    }
}

/// The store the in-process test servers use: SQLite in their data directory, or, with `CIRRUS_TEST_STORE=postgres`,
/// a new schema on the PostgreSQL test server (``PostgresTestDatabase``), so that the same HTTP tests run on both.
package enum TestStore {
    package static let variable = "CIRRUS_TEST_STORE"

    /// Whether the test servers use PostgreSQL.
    package static var isPostgres: Bool { ProcessInfo.processInfo.environment[variable] == "postgres" }

    /// Runs `body` with the database URL of a new, empty store (`nil`: SQLite in the data directory), and removes
    /// the store afterwards.
    package static func withDatabase<T: Sendable>(_ body: @Sendable (_ databaseURL: String?) async throws -> T) async throws -> T {
        guard isPostgres else { return try await body(nil) }
        return try await PostgresTestDatabase.withSchema { url in try await body(url) }
    }
}

/// Lets at most `permits` holders in at once; the others wait in order.
actor AsyncSemaphore {
    private var available: Int
    private var waiters: [CheckedContinuation<Void, Never>] = []

    init(permits: Int) {
        available = permits
    }

    func acquire() async {
        if available > 0 {
            available -= 1
            return
        }
        await withCheckedContinuation { waiters.append($0) }
    }

    func release() {
        if waiters.isEmpty {
            available += 1
        } else {
            waiters.removeFirst().resume()
        }
    }
}
