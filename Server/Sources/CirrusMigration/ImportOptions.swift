/// How `cirrus import` runs.
public struct ImportOptions: Sendable {
    public var source: MigrationSource
    /// The export: a folder, a `.json`/`.jsonl` file or a `.tar.gz`/`.tgz` archive.
    public var path: String
    /// Where progress is saved after each batch; `nil`: nowhere (a dry run).
    public var statePath: String?
    /// Where failures are written, one JSON line each; `nil`: nowhere.
    public var reportPath: String?
    /// Objects per transaction.
    public var batchSize: Int
    /// Read, decode and validate everything; write nothing.
    public var dryRun: Bool
    /// Progress lines on standard error.
    public var showProgress: Bool
    /// What this server's file URLs start with (`<public URL>/files`), as `serve` builds them.
    public var fileURLBase: String?
    /// The name of the file storage the server uses (the `provider` of its `_File` rows).
    public var fileProvider: String?
    /// The old app's file domain (`https://files.example.com`): a `_File` row without a URL (LeanCloud's scan API
    /// leaves it out for internal files) is downloaded from the domain followed by its key.
    public var fileDomain: String?

    public init(
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
