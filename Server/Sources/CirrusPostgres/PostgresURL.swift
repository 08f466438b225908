import Foundation
import NIOSSL
package import PostgresNIO

/// A malformed database URL.
package struct PostgresURLError: Error, CustomStringConvertible, Sendable {
    package let description: String
}

/// Reads `postgres://user:password@host:port/database?sslmode=…&sslrootcert=…&pool_size=…&search_path=…&application_name=…&connect_timeout=…`
/// (also `postgresql://`) into a client configuration.
package enum PostgresURL {
    /// - Throws: ``PostgresURLError`` when the scheme, user or database is missing, or `sslmode` is unknown.
    package static func configuration(_ text: String) throws -> PostgresClient.Configuration {
        guard let components = URLComponents(string: text), let scheme = components.scheme, ["postgres", "postgresql"].contains(scheme) else {
            throw PostgresURLError(description: "Not a postgres:// URL: \(redacted(text)).")
        }
        guard let user = components.user?.removingPercentEncoding, !user.isEmpty else {
            throw PostgresURLError(description: "The database URL needs a user: postgres://user:password@host:port/database.")
        }
        let database = String(components.path.drop { $0 == "/" }).removingPercentEncoding ?? ""
        guard !database.isEmpty else {
            throw PostgresURLError(description: "The database URL needs a database name: postgres://user:password@host:port/database.")
        }
        let query = parameters(components)
        var configuration = PostgresClient.Configuration(
            host: components.host.flatMap { $0.isEmpty ? nil : $0 } ?? "127.0.0.1", port: components.port ?? 5432, username: user,
            password: components.password?.removingPercentEncoding, database: database, tls: try tls(query["sslmode"], rootCertificate: query["sslrootcert"])
        )
        if let name = query["application_name"] { configuration.options.additionalStartupParameters.append(("application_name", name)) }
        if let searchPath = query["search_path"] { configuration.options.additionalStartupParameters.append(("search_path", searchPath)) }
        // No JIT: a `where` of a thousand conditions is estimated expensive enough to JIT-compile thousands of
        // expressions, which took PostgreSQL minutes for a query it runs in 30 ms.
        configuration.options.additionalStartupParameters.append(("jit", "off"))
        if let size = query["pool_size"] {
            guard let maximum = Int(size), maximum > 0 else { throw PostgresURLError(description: "pool_size must be a positive number.") }
            configuration.options.maximumConnections = maximum
        }
        if let deadline = try connectDeadline(query["connect_timeout"]) { configuration.options.connectTimeout = deadline }
        return configuration
    }

    /// How long to wait for a connection, from libpq's `connect_timeout` (whole seconds; 0 waits as long as it
    /// takes), or `nil` when the URL does not say.
    /// - Throws: ``PostgresURLError`` when the value is not a whole number of seconds.
    package static func connectDeadline(_ text: String) throws -> Duration? {
        try connectDeadline(URLComponents(string: text).flatMap { parameters($0)["connect_timeout"] })
    }

    private static func connectDeadline(_ value: String?) throws -> Duration? {
        guard let value else { return nil }
        guard let seconds = Int(value), seconds >= 0 else {
            throw PostgresURLError(description: "connect_timeout must be a whole number of seconds (0 waits as long as it takes).")
        }
        return .seconds(seconds == 0 ? 365 * 24 * 3600 : seconds)
    }

    /// The URL's query parameters by name (the last of a repeated one).
    private static func parameters(_ components: URLComponents) -> [String: String] {
        Dictionary((components.queryItems ?? []).map { ($0.name, $0.value ?? "") }) { $1 }
    }

    /// `configuration` with PostgreSQL's `statement_timeout` (a statement running longer is cancelled) and
    /// `idle_in_transaction_session_timeout` (a session left in an open transaction that long is ended, releasing its
    /// locks) set to `timeout` on every connection; unchanged for `nil`.
    package static func limitingStatements(_ configuration: PostgresClient.Configuration, to timeout: Duration?) -> PostgresClient.Configuration {
        guard let timeout else { return configuration }
        var configuration = configuration
        let milliseconds = String(max(1, timeout.components.seconds * 1000 + timeout.components.attoseconds / 1_000_000_000_000_000))
        configuration.options.additionalStartupParameters += [
            ("statement_timeout", milliseconds), ("idle_in_transaction_session_timeout", milliseconds),
        ]
        return configuration
    }

    /// TLS as libpq's `sslmode` means it: `disable` (the default: loopback servers rarely have certificates), `prefer`
    /// and `require` (encrypted, the certificate not checked), `verify-ca` (signed by a trusted CA) and `verify-full`
    /// (also naming the host). `sslrootcert` is a PEM file of the CAs to trust instead of the system's.
    static func tls(_ mode: String?, rootCertificate: String?) throws -> PostgresClient.Configuration.TLS {
        var configuration = TLSConfiguration.makeClientConfiguration()
        if let rootCertificate {
            do {
                configuration.trustRoots = .certificates(try NIOSSLCertificate.fromPEMFile(rootCertificate))
            } catch {
                throw PostgresURLError(description: "sslrootcert '\(rootCertificate)' is not a readable PEM file: \(error).")
            }
        }
        switch mode ?? "disable" {
        case "disable": return .disable
        case "prefer", "require":
            configuration.certificateVerification = .none
            return mode == "prefer" ? .prefer(configuration) : .require(configuration)
        case "verify-ca":
            configuration.certificateVerification = .noHostnameVerification
            return .require(configuration)
        case "verify-full":
            configuration.certificateVerification = .fullVerification
            return .require(configuration)
        default: throw PostgresURLError(description: "Unknown sslmode '\(mode ?? "")': use disable, prefer, require, verify-ca or verify-full.")
        }
    }

    /// The URL without its password, for messages and logs.
    package static func redacted(_ text: String) -> String {
        guard var components = URLComponents(string: text), components.password != nil else { return text }
        components.password = "***"
        return components.string ?? text
    }
}
