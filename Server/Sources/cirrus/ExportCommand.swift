import ArgumentParser
import CirrusMigration
import CirrusModel
import CirrusServer
import Foundation

/// `cirrus export [--classes A,B] [--from-date D] [--to-date D] [--only-schema] [--include-files] OUTPUT`.
struct ExportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Export the data in LeanCloud's export format (JSON lines per class), to a .tar.gz or a folder.",
        discussion: """
            Writes <Class>.jsonl per class, _User with password hashes and session tokens, _Session.jsonl, \
            _Join:<field>:<Class>.jsonl per relation, _schema.json, _File.jsonl (with --include-files, contents under \
            files/<key>) and manifest.json; `cirrus import --from leancloud` reads it back. The output holds password \
            hashes: keep it private. Nothing is left at OUTPUT if the export fails. See docs/export.md.
            """
    )

    @OptionGroup var store: StoreOptions

    @OptionGroup(title: "File storage (as for serve)") var files: FileStorageOptions

    @Option(help: "Only these classes, comma-separated (sessions go with _User).")
    var classes: String?

    @Option(help: "Only objects updated on or after this day (2015-09-20) or instant (ISO 8601).")
    var fromDate: String?

    @Option(help: "Only objects updated on or before this day (the whole day), or before this instant.")
    var toDate: String?

    @Flag(help: "Only _schema.json and manifest.json.")
    var onlySchema = false

    @Flag(help: "Also write the contents of stored files under files/<key>.")
    var includeFiles = false

    @Argument(help: "Where to write: a path ending in .tar.gz (or .tgz), or a folder that does not exist or is empty.")
    var output: String

    func run() async throws {
        let environment = ProcessInfo.processInfo.environment
        var configuration = ServerConfiguration()
        let (dataDirectory, databaseURL) = store.resolve(environment: environment)
        configuration.dataDirectory = dataDirectory ?? configuration.dataDirectory
        configuration.databaseURL = databaseURL
        try files.apply(EnvironmentValues(environment: environment), to: &configuration)
        var options = ExportOptions(onlySchema: onlySchema, includeFiles: includeFiles)
        do {
            if let classes { options.classes = try ExportOptions.classList(classes) }
            if let fromDate { options.from = try ExportDate.parse(fromDate, endOfDay: false, name: "--from-date") }
            if let toDate { options.to = try ExportDate.parse(toDate, endOfDay: true, name: "--to-date") }
        } catch let error as APIError {
            throw ValidationError(error.message)
        }
        let summary = try await CirrusServer.export(configuration, options: options, output: output) { line in
            FileHandle.standardError.write(Data((line + "\n").utf8))
        }
        for line in summary.lines { print(line) }
        print("exported to \(output)")
    }
}
