package import CirrusStorage
import Foundation
import Logging

extension CirrusServer {
    /// Opens the store `configuration` names and applies its migrations, for commands that work on the data without
    /// serving it (`cirrus import`). The caller closes it.
    package static func openStore(_ configuration: ServerConfiguration) async throws -> any StorageAdapter {
        try FileManager.default.createDirectory(atPath: configuration.dataDirectory, withIntermediateDirectories: true)
        let store = try StoreFactory.open(configuration, logger: Logger(label: "cirrus"))
        do {
            try await store.prepare()
        } catch {
            try? await store.close()
            throw error
        }
        return store
    }

    /// The storage of file contents `configuration` names, as `serve` uses it.
    package static func openFileStorage(_ configuration: ServerConfiguration) throws -> any FileStorage {
        try fileStorage(configuration)
    }
}
