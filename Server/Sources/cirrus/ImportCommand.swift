import ArgumentParser
import CirrusMigration
import CirrusServer
import CirrusStorage
import Foundation

/// `cirrus import --from leancloud|parse|bmob PATH`: loads an export into the store, without a running server.
struct ImportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Import a LeanCloud, Parse or Bmob export (a folder, a .json/.jsonl file or a .tar.gz).",
        discussion: """
            Keeps objectIds, createdAt/updatedAt, ACLs, pointers, relations (_Join files), roles, installations, \
            users with their password hashes (LeanCloud and bcrypt, verified and upgraded at their next log-in) and \
            session tokens. An object whose objectId exists is skipped, never overwritten. Progress is saved after \
            every batch in the state file: run the same command again to continue after a crash. Failures go to the \
            report file, one JSON line each. Exit status: 0 when everything was imported or skipped, 2 when some \
            records (or file contents) failed (see the report), 1 when the import could not run.
            """
    )

    @Option(help: "The export's origin: leancloud (also Cirrus's own export), parse or bmob.")
    var from: String

    @Argument(help: "The export: a folder, a .json/.jsonl file, or a .tar.gz/.tgz archive.")
    var path: String

    @OptionGroup var store: StoreOptions

    @OptionGroup(title: "File storage (as for serve: contents go where the server reads them)") var fileStorage: FileStorageOptions

    @Option(help: "Folder holding file contents by key (an export's files/ folder), copied into the file storage.")
    var files: String?

    @Flag(help: "Download file contents from their old URLs into the file storage.")
    var downloadFiles = false

    @Option(help: "The old app's file domain (https://…): files without a URL are downloaded from it followed by their key.")
    var fileDomain: String?

    @Option(help: "The server's public base URL (CIRRUS_PUBLIC_URL), to recognise file URLs that point at it.")
    var publicUrl: String?

    @Option(help: "State file of the import (default <data dir>/imports/<digest of PATH>.state).")
    var state: String?

    @Option(help: "Report file: one JSON line per failure (default: the state file's path ending in .report.jsonl).")
    var report: String?

    @Flag(help: "Read, decode and validate everything; write nothing (no objects, no schema, no state).")
    var dryRun = false

    @Option(help: "Objects per transaction.")
    var batchSize = 300

    @Flag(help: "No progress on standard error.")
    var quiet = false

    func validate() throws {
        guard MigrationSource(rawValue: from) != nil else { throw ValidationError("--from must be leancloud, parse or bmob.") }
        guard batchSize > 0 else { throw ValidationError("--batch-size must be positive.") }
        if let fileDomain {
            guard downloadFiles else { throw ValidationError("--file-domain needs --download-files.") }
            guard let url = URL(string: fileDomain), ["http", "https"].contains(url.scheme?.lowercased() ?? ""), url.host != nil else {
                throw ValidationError("--file-domain must be an http or https URL, such as https://files.example.com.")
            }
        }
    }

    func run() async throws {
        let environment = ProcessInfo.processInfo.environment
        var configuration = ServerConfiguration()
        let (dataDirectory, databaseURL) = store.resolve(environment: environment)
        configuration.dataDirectory = dataDirectory ?? configuration.dataDirectory
        configuration.databaseURL = databaseURL
        try fileStorage.apply(EnvironmentValues(environment: environment), to: &configuration)
        let statePath = state ?? Importer.defaultStatePath(dataDirectory: configuration.dataDirectory, source: path)
        let reportPath = report ?? (dryRun ? nil : Self.reportPath(forState: statePath))
        var temporary: String?
        if dryRun, databaseURL == nil, !FileManager.default.fileExists(atPath: configuration.dataDirectory + "/cirrus.sqlite") {
            // A dry run creates nothing: with no database yet, it validates against an empty one in a temporary folder.
            let folder = NSTemporaryDirectory() + "cirrus-import-dry-run-" + UUID().uuidString
            configuration.dataDirectory = folder
            temporary = folder
        }
        defer { if let temporary { try? FileManager.default.removeItem(atPath: temporary) } }
        let carrier = dryRun ? nil : try makeCarrier(configuration, journal: Self.journalPath(forState: statePath))
        let storage = try await CirrusServer.openStore(configuration)
        var options = ImportOptions(
            source: MigrationSource(rawValue: from)!, path: path, statePath: dryRun ? nil : statePath, reportPath: reportPath,
            batchSize: batchSize, dryRun: dryRun, showProgress: !quiet
        )
        if let publicURL = publicUrl ?? environment["CIRRUS_PUBLIC_URL"].flatMap({ $0.isEmpty ? nil : $0 }) {
            options.fileURLBase = publicURL + "/files"
        }
        options.fileProvider = try? CirrusServer.openFileStorage(configuration).name
        options.fileDomain = fileDomain.map { $0.hasSuffix("/") ? String($0.dropLast()) : $0 }
        let summary: ImportSummary
        do {
            summary = try await Importer(store: storage, options: options, carrier: carrier).run()
        } catch {
            try? await storage.close()
            throw error
        }
        try await storage.close()
        print(summary.table())
        if summary.totalFailed > 0 {
            if let reportPath { FileHandle.standardError.write(Data("failures are listed in \(reportPath)\n".utf8)) }
            throw ExitCode(2)
        }
    }

    /// The default report path beside the state file.
    static func reportPath(forState statePath: String) -> String {
        (statePath.hasSuffix(".state") ? String(statePath.dropLast(".state".count)) : statePath) + ".report.jsonl"
    }

    /// The journal of the file contents carried, beside the state file.
    static func journalPath(forState statePath: String) -> String {
        (statePath.hasSuffix(".state") ? String(statePath.dropLast(".state".count)) : statePath) + ".files.journal"
    }

    /// What copies file contents (`--files`, `--download-files`) into the storage `serve` uses; `journal` records the
    /// keys done, so a re-run does not copy them again.
    private func makeCarrier(_ configuration: ServerConfiguration, journal: String) throws -> (any FileContentCarrier)? {
        guard files != nil || downloadFiles else { return nil }
        return try FileCarrier(
            storage: try CirrusServer.openFileStorage(configuration), directory: files.map { URL(fileURLWithPath: $0) },
            download: downloadFiles, journal: URL(fileURLWithPath: journal), maximumSize: configuration.maximumFileSize
        )
    }
}
