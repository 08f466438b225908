/// How `cirrus import` runs.
package struct ImportOptions: Sendable {
    package var source: MigrationSource
    /// The export: a folder, a `.json`/`.jsonl` file or a `.tar.gz`/`.tgz` archive.
    package var path: String
    /// Where progress is saved after each batch; `nil`: nowhere (a dry run).
    package var statePath: String?
    /// Where failures are written, one JSON line each; `nil`: nowhere.
    package var reportPath: String?
    /// Objects per transaction.
    package var batchSize: Int
    /// Read, decode and validate everything; write nothing.
    package var dryRun: Bool
    /// Progress lines on standard error.
    package var showProgress: Bool
    /// What this server's file URLs start with (`<public URL>/files`), as `serve` builds them.
    package var fileURLBase: String?
    /// The name of the file storage the server uses (the `provider` of its `_File` rows).
    package var fileProvider: String?
    /// The old app's file domain (`https://files.example.com`): a `_File` row without a URL (LeanCloud's scan API
    /// leaves it out for internal files) is downloaded from the domain followed by its key.
    package var fileDomain: String?
    /// Told the records read, bytes read and bytes to read as the import goes (after each batch and at the end), for
    /// a progress bar elsewhere than standard error.
    package var onProgress: (@Sendable (_ records: Int, _ doneBytes: Int64, _ totalBytes: Int64) -> Void)?

    package init(
        source: MigrationSource, path: String, statePath: String? = nil, reportPath: String? = nil, batchSize: Int = 300,
        dryRun: Bool = false, showProgress: Bool = false, fileURLBase: String? = nil, fileProvider: String? = nil
    ) {
        self.source = source
        self.path = path
        self.statePath = statePath
        self.reportPath = reportPath
        self.batchSize = max(1, batchSize)
        self.dryRun = dryRun
        self.showProgress = showProgress
        self.fileURLBase = fileURLBase
        self.fileProvider = fileProvider
    }
}
