import CirrusModel
import CirrusPostgres
import CirrusSQLite
import CirrusStorage
import Foundation
import Logging

/// Opens the store a configuration names.
enum StoreFactory {
    static let sqliteFileName = "cirrus.sqlite"

    static func open(_ configuration: ServerConfiguration, logger: Logger) throws -> any StorageAdapter {
        let limits = configuration.resilience
        guard let url = configuration.databaseURL, !url.isEmpty else {
            if configuration.databaseReplicaURL != nil { throw ServerStartError.unsupportedDatabase("A replica needs a postgres:// database.") }
            return try SQLiteStorageAdapter(path: try sqlitePath(in: configuration.dataDirectory), statementTimeout: limits.statementTimeout, regexBudgetMilliseconds: configuration.queryLimits.regexBudgetMilliseconds)
        }
        if url.hasPrefix("sqlite://") {
            if configuration.databaseReplicaURL != nil { throw ServerStartError.unsupportedDatabase("A replica needs a postgres:// database.") }
            return try SQLiteStorageAdapter(path: String(url.dropFirst("sqlite://".count)), statementTimeout: limits.statementTimeout, regexBudgetMilliseconds: configuration.queryLimits.regexBudgetMilliseconds)
        }
        if url.hasPrefix("postgres://") || url.hasPrefix("postgresql://") {
            do {
                return try PostgresStorageAdapter(
                    url: url, replicaURL: configuration.databaseReplicaURL, statementTimeout: limits.statementTimeout,
                    connectionWait: limits.databaseWaitTimeout, changeLogRetention: configuration.changeLogRetention, logger: logger
                )
            } catch let error as PostgresURLError {
                throw ServerStartError.unsupportedDatabase(error.description)
            }
        }
        throw ServerStartError.unsupportedDatabase(
            "Unrecognised database URL '\(PostgresURL.redacted(url))': use postgres://user:password@host:port/database or sqlite:///path/to/file.sqlite."
        )
    }

    /// The SQLite file in the data directory, creating the directory.
    static func sqlitePath(in directory: String) throws -> String {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        return URL(fileURLWithPath: directory).appendingPathComponent(sqliteFileName).path
    }
}

/// Why the server could not start.
public enum ServerStartError: Error, CustomStringConvertible {
    case unsupportedDatabase(String)
    /// A listener's address is taken or not allowed.
    case unavailableAddress(String)
    /// A setting that cannot work with the others.
    case invalidConfiguration(String)

    public var description: String {
        switch self {
        case .unsupportedDatabase(let detail), .unavailableAddress(let detail), .invalidConfiguration(let detail): detail
        }
    }
}
