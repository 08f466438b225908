package import CirrusModel
package import CirrusStorage
import Foundation
package import Logging
import Synchronization

/// Imports started from the web console: the uploaded export is kept in `<data dir>/imports/`, imported in the
/// background by the same ``Importer`` as `cirrus import` (same validation, batches, state and report), and its
/// progress is kept in memory on the instance that runs it, for the console to poll.
package final class ImportJobs: Sendable {
    /// One import: what it is, how far it got, how it ended.
    package struct Status: Sendable {
        package enum State: String, Sendable { case running, succeeded, failed }

        package var id: String
        package var name: String
        package var source: MigrationSource
        package var state: State = .running
        package var records = 0
        package var doneBytes: Int64 = 0
        package var totalBytes: Int64 = 0
        package var error: String?
        package var summary: ImportSummary?
        package var startedAt: Timestamp
        package var finishedAt: Timestamp?

        /// As the console reads it.
        package var wire: JSON {
            var members: [String: JSON] = [
                "id": .string(id), "name": .string(name), "from": .string(source.rawValue), "status": .string(state.rawValue),
                "records": .int(Int64(records)), "doneBytes": .int(doneBytes), "totalBytes": .int(totalBytes), "startedAt": .date(startedAt),
            ]
            if let error { members["error"] = .string(error) }
            if let finishedAt { members["finishedAt"] = .date(finishedAt) }
            if let summary {
                members["summary"] = [
                    "imported": .int(Int64(summary.totalImported)), "skipped": .int(Int64(summary.totalSkipped)),
                    "failed": .int(Int64(summary.totalFailed)), "filesCopied": .int(Int64(summary.filesCopied)),
                    "passwordResets": .int(Int64(summary.passwordResets.count)),
                    "classes": .object(summary.classes.mapValues { counts in
                        ["imported": .int(Int64(counts.imported)), "skipped": .int(Int64(counts.skipped)), "failed": .int(Int64(counts.failed))]
                    }),
                ]
            }
            return .object(members)
        }
    }

    let store: any StorageAdapter
    let dataDirectory: String
    let fileURLBase: String?
    let fileProvider: String?
    let logger: Logger
    private let jobs = Mutex<[Status]>([])
    /// The imports remembered, newest first.
    static let remembered = 20
    /// The largest export accepted from the console; bigger ones go through `cirrus import`.
    package static let maximumSize: Int64 = 2 * 1024 * 1024 * 1024

    package init(store: any StorageAdapter, dataDirectory: String, fileURLBase: String?, fileProvider: String?, logger: Logger) {
        self.store = store
        self.dataDirectory = dataDirectory
        self.fileURLBase = fileURLBase
        self.fileProvider = fileProvider
        self.logger = logger
    }

    /// Where an upload named `name` is kept before it is imported, for a new import id.
    /// - Throws: ``APIError`` ``APIError/Reason/invalidParameter`` for a name that is not an export this reads.
    package func uploadPath(id: String, name: String) throws(APIError) -> String {
        let lower = name.lowercased()
        guard let suffix = [".tar.gz", ".tgz", ".jsonl", ".json"].first(where: { lower.hasSuffix($0) }) else {
            throw APIError(.invalidParameter, "Import a .tar.gz or .tgz export, or one class as .json or .jsonl.")
        }
        // The class a `.json`/`.jsonl` file holds is read from its name: keep the name, made safe for a path.
        let base = String(name.dropLast(suffix.count)).map { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "-" ? $0 : "_" }
        return "\(dataDirectory)/imports/uploads/\(id)/\(String(base).isEmpty ? "export" : String(base))\(suffix)"
    }

    /// Starts importing the export at `path` (written by the caller at ``uploadPath(id:name:)``); returns at once.
    package func start(id: String, name: String, source: MigrationSource, path: String) -> Status {
        let status = Status(id: id, name: name, source: source, startedAt: .now())
        jobs.withLock { jobs in
            jobs.insert(status, at: 0)
            if jobs.count > Self.remembered { jobs.removeLast(jobs.count - Self.remembered) }
        }
        Task { await run(id: id, source: source, path: path) }
        return status
    }

    package func status(id: String) -> Status? {
        jobs.withLock { $0.first { $0.id == id } }
    }

    package func list() -> [Status] {
        jobs.withLock { $0 }
    }

    private func run(id: String, source: MigrationSource, path: String) async {
        let statePath = Importer.defaultStatePath(dataDirectory: dataDirectory, source: path)
        var options = ImportOptions(source: source, path: path, statePath: statePath, reportPath: statePath + ".report.jsonl")
        options.fileURLBase = fileURLBase
        options.fileProvider = fileProvider
        options.onProgress = { [weak self] records, done, total in
            self?.update(id) {
                $0.records = records
                $0.doneBytes = done
                $0.totalBytes = total
            }
        }
        do {
            let summary = try await Importer(store: store, options: options).run()
            update(id) {
                $0.summary = summary
                $0.state = summary.totalFailed > 0 ? .failed : .succeeded
                if summary.totalFailed > 0 { $0.error = "\(summary.totalFailed) records failed: the server's data directory holds their report (imports/)." }
            }
            logger.notice("console import finished", metadata: ["id": "\(id)", "imported": "\(summary.totalImported)", "failed": "\(summary.totalFailed)"])
        } catch {
            update(id) {
                $0.state = .failed
                $0.error = "\(error)"
            }
            logger.warning("console import failed", metadata: ["id": "\(id)", "error": "\(error)"])
        }
        update(id) { $0.finishedAt = .now() }
        try? FileManager.default.removeItem(atPath: (path as NSString).deletingLastPathComponent)
    }

    private func update(_ id: String, _ change: (inout Status) -> Void) {
        jobs.withLock { jobs in
            if let index = jobs.firstIndex(where: { $0.id == id }) { change(&jobs[index]) }
        }
    }
}
