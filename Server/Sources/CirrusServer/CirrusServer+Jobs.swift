import CirrusMessaging
import CirrusStorage
package import CirrusServices
import Foundation
import Logging

extension CirrusServer {
    /// Opens the store `configuration` names, hands its scheduled jobs to `body` (the CLI's `cirrus jobs`), and closes it.
    /// Runs asked for here are left to a running server (``ScheduledJobs/runSoon(_:)``): the CLI calls no engine.
    package static func withScheduledJobs<T: Sendable>(
        _ configuration: ServerConfiguration, _ body: @Sendable (ScheduledJobs) async throws -> T
    ) async throws -> T {
        try FileManager.default.createDirectory(atPath: configuration.dataDirectory, withIntermediateDirectories: true)
        let logger = Logger(label: "cirrus")
        let store = try StoreFactory.open(configuration, logger: logger)
        do {
            try await store.prepare()
            let settings = EngineSettings(productionURL: nil, appId: "", appKey: "", masterKey: "", hookKey: "")
            let engine = CloudEngine(settings: settings, transport: HTTPEngineTransport(), logger: logger)
            let result = try await body(ScheduledJobs(store: store, scheduler: JobScheduler(engine: engine, store: store, logger: logger)))
            try await store.close()
            return result
        } catch {
            try? await store.close()
            throw error
        }
    }
}
