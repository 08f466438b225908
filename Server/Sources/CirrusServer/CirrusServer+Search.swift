import CirrusServices
import CirrusStorage
import Foundation
import Logging

extension CirrusServer {
    /// `cirrus search`: turns in-app search on for a class with these fields (or off with `nil`) and builds its index
    /// from the class's objects (``SearchService/configure(_:fields:caller:)``, what the schema API's `search` does);
    /// returns the objects indexed. Running servers learn of the change through the store's notices.
    public static func configureSearch(_ configuration: ServerConfiguration, className: String, fields: [String]?) async throws -> Int {
        try FileManager.default.createDirectory(atPath: configuration.dataDirectory, withIntermediateDirectories: true)
        // A rebuild reads and writes every object: no statement timeout.
        var unlimited = configuration
        unlimited.resilience.statementTimeout = nil
        let logger = Logger(label: "cirrus")
        let store = try StoreFactory.open(unlimited, logger: logger)
        do {
            try await store.prepare()
            var services = ServiceConfiguration(maximumObjectSize: configuration.maximumObjectSize)
            services.queryLimits = configuration.queryLimits
            let objects = ObjectService(store: store, schemas: SchemaCache(store: store), configuration: services, logger: logger)
            let indexed = try await SearchService(objects: objects).configure(className, fields: fields, caller: .master)
            try await store.close()
            return indexed
        } catch {
            try? await store.close()
            throw error
        }
    }
}
