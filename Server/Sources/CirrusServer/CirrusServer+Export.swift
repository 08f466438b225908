public import CirrusMigration
import CirrusStorage
import Foundation
import Logging

extension CirrusServer {
    /// `cirrus export`: opens the configured store (and, for file contents, the file storage) and writes the export
    /// to `output` (a `.tar.gz` or a folder).
    public static func export(
        _ configuration: ServerConfiguration, options: ExportOptions, output: String, progress: @escaping @Sendable (String) -> Void
    ) async throws -> ExportSummary {
        try FileManager.default.createDirectory(atPath: configuration.dataDirectory, withIntermediateDirectories: true)
        let store = try StoreFactory.open(configuration, logger: Logger(label: "cirrus"))
        do {
            try await store.prepare()
            let files = options.includeFiles ? try fileStorage(configuration) : nil
            let summary = try await Exporter(store: store, files: files, options: options, progress: progress).export(to: output)
            try await store.close()
            return summary
        } catch {
            try? await store.close()
            throw error
        }
    }
}
