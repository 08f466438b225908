/// What became of one file's content when an import carried it over (see ``FileContentCarrier``).
package enum FileCarryOutcome: Sendable, Equatable {
    /// The content was copied into the store's file storage (from `--files` or downloaded).
    case copied(bytes: Int)
    /// The storage already held content under the key (a re-run, or a copy made before).
    case alreadyPresent
    /// Neither `--files` nor `--download-files` was given: the row is imported without content.
    case notRequested
    /// The content could not be carried (missing from the folder, download failed, …); the row stays imported.
    case failed(String)
}

/// The seam between the importer and whatever copies file contents: after a `_File` row is inserted or found already
/// present, the importer asks the carrier to bring its content to `key` in the store's file storage.
/// `sourceKey` is the key the file had in the export (the name under `files/` or in LeanCloud's storage), `url` its old
/// URL (for downloads), `name` its file name.
package protocol FileContentCarrier: Sendable {
    func carry(key: String, sourceKey: String, url: String?, name: String?) async throws -> FileCarryOutcome
}
