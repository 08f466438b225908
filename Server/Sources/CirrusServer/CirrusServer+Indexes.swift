import CirrusModel
import CirrusStorage
import Foundation
import Logging

extension CirrusServer {
    /// Adds the expression indexes that equality, range and order conditions on `fields` of `className` use,
    /// in the store `configuration` names (applying its migrations first). Safe to run while servers are
    /// serving the same database, and again: an index that exists is left alone.
    /// - Throws: ``APIError`` for an invalid field path; the store's error when the class does not exist.
    public static func ensureIndexes(_ configuration: ServerConfiguration, className: String, fields: [String]) async throws {
        let paths = try fields.map { try FieldPath(parsing: $0) }
        try FileManager.default.createDirectory(atPath: configuration.dataDirectory, withIntermediateDirectories: true)
        // An index build may take long: no statement timeout.
        var unlimited = configuration
        unlimited.resilience.statementTimeout = nil
        let store = try StoreFactory.open(unlimited, logger: Logger(label: "cirrus"))
        do {
            try await store.prepare()
            for path in paths { try await store.ensureIndex(className: className, path: path) }
        } catch {
            try? await store.close()
            throw error
        }
        try await store.close()
    }
}
