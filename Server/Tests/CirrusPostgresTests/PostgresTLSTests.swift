import CirrusPostgres
import CirrusSQLStore
import CirrusTesting
import Foundation
import Logging
import PostgresNIO
import Testing

/// TLS to PostgreSQL as libpq's `sslmode` values mean it, against the test server, which scripts/test starts with
/// `ssl=on` and a self-signed certificate for 127.0.0.1 (`CIRRUS_TEST_POSTGRES_CA` names it).
@Suite("TLS connections to PostgreSQL")
struct PostgresTLSTests {
    /// Whether the connection `url` configures is encrypted, as the server sees it.
    static func isEncrypted(_ url: String) async throws -> Bool {
        let client = PostgresClient(configuration: try PostgresURL.configuration(url), backgroundLogger: Logger(label: "cirrus.tests.tls"))
        return try await withThrowingTaskGroup(of: Bool?.self) { group in
            group.addTask {
                await client.run()
                return nil
            }
            group.addTask {
                let rows = try await client.query("SELECT ssl FROM pg_stat_ssl WHERE pid = pg_backend_pid()")
                var encrypted = false
                for try await (ssl) in rows.decode(Bool.self) { encrypted = ssl }
                return encrypted
            }
            defer { group.cancelAll() }
            while let result = try await group.next() {
                if let result { return result }
            }
            return false
        }
    }

    static func certificateAuthority() throws -> String {
        guard let path = ProcessInfo.processInfo.environment["CIRRUS_TEST_POSTGRES_CA"], !path.isEmpty else {
            throw PostgresTestError("CIRRUS_TEST_POSTGRES_CA is not set: run scripts/test, which starts PostgreSQL with TLS.")
        }
        return path
    }

    @Test("verify-full and verify-ca with the server's CA, and require, connect encrypted; disable does not encrypt")
    func modes() async throws {
        let (ca, base) = (try Self.certificateAuthority(), try PostgresTestDatabase.url())
        #expect(try await Self.isEncrypted(base + "?sslmode=verify-full&sslrootcert=\(ca)"))
        #expect(try await Self.isEncrypted(base + "?sslmode=verify-ca&sslrootcert=\(ca)"))
        #expect(try await Self.isEncrypted(base + "?sslmode=require"))
        #expect(try await !Self.isEncrypted(base + "?sslmode=disable"))
        let store = try PostgresStorageAdapter(url: base + "?sslmode=verify-full&sslrootcert=\(ca)")
        try await store.prepare()
        try await store.close()
    }

    @Test("verify-full without the server's CA fails to connect, within the connect deadline, with the database's address")
    func untrustedCertificate() async throws {
        let base = try PostgresTestDatabase.url()
        let store = PostgresStorageAdapter(configuration: try PostgresURL.configuration(base + "?sslmode=verify-full"), connectDeadline: .seconds(3))
        let error = await #expect(throws: (any Error).self) { try await store.prepare() }
        #expect("\(error.map { "\($0)" } ?? "")".contains("did not accept a connection"))
        try await store.close()
    }

    @Test("an unreadable sslrootcert or an unknown sslmode is refused with what is wrong")
    func badSettings() throws {
        let base = try PostgresTestDatabase.url()
        #expect(throws: PostgresURLError.self) { try PostgresURL.configuration(base + "?sslmode=verify-full&sslrootcert=/nonexistent.pem") }
        #expect(throws: PostgresURLError.self) { try PostgresURL.configuration(base + "?sslmode=sometimes") }
    }
}
