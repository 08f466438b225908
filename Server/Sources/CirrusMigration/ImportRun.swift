import CirrusModel
import CirrusServices
import CirrusStorage
import Foundation
import Logging

/// One run of an import: the reading loop, batching, state and summary. Used by one task.
final class ImportRun {
    let store: any StorageAdapter
    let options: ImportOptions
    let carrier: (any FileContentCarrier)?
    let objects: ObjectService
    let decoder: RecordDecoder
    let files: FileRowIndex
    let report: ImportReport
    let progress: ImportProgress
    var state: ImportState
    var summary = ImportSummary()
    /// Field types introduced so far in a dry run (nothing is recorded in the store), per class.
    var dryRunFields: [String: [String: FieldType]] = [:]
    /// Relation targets named by `_schema.json`, per class and field.
    var schemaRelations: [String: [String: String]] = [:]

    init(store: any StorageAdapter, options: ImportOptions, carrier: (any FileContentCarrier)?) async throws {
        self.store = store
        self.options = options
        self.carrier = carrier
        var configuration = ServiceConfiguration()
        configuration.fileURLBase = options.fileURLBase
        let schemas = SchemaCache(store: store)
        try await schemas.warmUp()
        objects = ObjectService(store: store, schemas: schemas, configuration: configuration, logger: Logger(label: "cirrus.import"))
        decoder = RecordDecoder(source: options.source)
        files = FileRowIndex(store: store)
        report = try ImportReport(path: options.reportPath)
        progress = ImportProgress(enabled: options.showProgress, observer: options.onProgress)
        let absolute = URL(fileURLWithPath: options.path).standardizedFileURL.path
        if let path = options.statePath, !options.dryRun {
            state = try ImportState.load(path: path, source: absolute)
        } else {
            state = ImportState(source: absolute)
        }
        summary.dryRun = options.dryRun
    }

    func run() async throws -> ImportSummary {
        let input = try ImportInput(path: options.path)
        let entries = try input.entries()
        progress.totalBytes = entries.filter { Self.rereads($0) || state.files[$0.name]?.finished != true }.reduce(0) { $0 + $1.size }
        var pending: [ImportInput.Entry] = []
        for entry in entries {
            if !Self.rereads(entry), let done = state.files[entry.name], done.finished {
                summary.resumedLines += done.line
                summary.count(entry.kind.summaryClass) { $0.skipped += done.records }
            } else {
                pending.append(entry)
            }
        }
        try await input.read(pending) { entry, source in
            try await importFile(entry, CountingSource(source, progress: progress))
        }
        progress.finish()
        return summary
    }

    /// `_File` rows are read again on every run, resumed or not: their rows already stored are skipped, but the
    /// file values of later classes are linked through them, and a content that could not be copied (a file missing
    /// from `--files`, a download that failed) is tried again; the carrier's journal skips contents already copied.
    static func rereads(_ entry: ImportInput.Entry) -> Bool {
        if case .objects(className: "_File") = entry.kind { true } else { false }
    }

    private func importFile(_ entry: ImportInput.Entry, _ source: any ByteSource) async throws {
        let start = Self.rereads(entry)
            ? ImportState.FileProgress(line: 0, finished: false) : state.files[entry.name] ?? ImportState.FileProgress(line: 0, finished: false)
        summary.resumedLines += start.line
        let batch = PendingBatch(entry: entry, line: start.line, records: start.records)
        if case .schema = entry.kind {
            batch.records = try await importSchema(entry, source)
            batch.line = batch.records
            try commitState(batch, finished: true)
            return
        }
        try await RecordReader().read(source, name: entry.name, after: start.line) { record in
            switch record {
            case .failure(let line, let reason):
                fail(entry, line: line, objectId: nil, reason: reason)
                batch.line = line
                batch.records += 1
            case .object(let members, let line):
                await add(members, line: line, to: batch)
                if batch.count >= options.batchSize { try await flush(batch) }
            }
            progress.update()
        }
        try await flush(batch)
        try commitState(batch, finished: true)
    }

    /// Validates one record into the batch, or reports it.
    private func add(_ members: [String: JSON], line: Int, to batch: PendingBatch) async {
        batch.line = line
        batch.records += 1
        progress.records += 1
        switch batch.entry.kind {
        case .objects("_Session"):
            do { batch.sessions.append((line, try decodeSession(members))) } catch { fail(batch.entry, line: line, objectId: members["objectId"]?.stringValue, reason: Self.reason(error, "_Session")) }
        case .objects(let className):
            do {
                batch.inserts.append(try await prepareInsert(members, className: className, line: line))
            } catch {
                fail(batch.entry, line: line, objectId: members["objectId"]?.stringValue, reason: Self.reason(error, className))
            }
        case .join:
            guard let owning = members["owningId"]?.stringValue, let related = members["relatedId"]?.stringValue else {
                fail(batch.entry, line: line, objectId: nil, reason: "A relation row needs owningId and relatedId strings.")
                return
            }
            batch.members.append((line, owning, related))
        case .schema, .ignored:
            break
        }
    }

    /// Writes what the batch holds, then saves the state.
    private func flush(_ batch: PendingBatch) async throws {
        if !batch.inserts.isEmpty { try await writeInserts(batch) }
        if !batch.sessions.isEmpty { try await writeSessions(batch) }
        if !batch.members.isEmpty { try await writeMembers(batch) }
        batch.inserts.removeAll()
        batch.sessions.removeAll()
        batch.members.removeAll()
        try commitState(batch, finished: false)
    }

    private func commitState(_ batch: PendingBatch, finished: Bool) throws {
        guard !options.dryRun, let path = options.statePath else { return }
        state.files[batch.entry.name] = ImportState.FileProgress(line: batch.line, finished: finished, records: batch.records)
        try state.save(path: path)
    }

    func fail(_ entry: ImportInput.Entry, line: Int?, objectId: String?, reason: String) {
        summary.count(entry.kind.summaryClass) { $0.failed += 1 }
        report.failure(file: entry.name, line: line, className: entry.kind.summaryClass, objectId: objectId, reason: reason)
    }

    /// The message of an error, as a client would read it.
    static func reason(_ error: any Error, _ className: String) -> String {
        switch error {
        case let error as APIError: error.message
        case let error as StorageError: error.apiError(className: className).message
        default: "\(error)"
        }
    }

    /// Runs commands in one transaction; when it fails, one by one. The result of each, in order.
    func perform(_ commands: [WriteCommand]) async throws -> [Result<WriteResult, StorageError>] {
        let results = try await store.perform(commands, atomically: true)
        if results.allSatisfy({ if case .success = $0 { true } else { false } }) { return results }
        var single: [Result<WriteResult, StorageError>] = []
        for command in commands { single.append(try await store.perform([command], atomically: false)[0]) }
        return single
    }
}

/// The records of one file waiting for their transaction.
final class PendingBatch {
    let entry: ImportInput.Entry
    /// The last line read (its outcome is committed with the batch).
    var line: Int
    var records: Int
    var inserts: [PreparedInsert] = []
    var sessions: [(line: Int, session: StoredSession)] = []
    var members: [(line: Int, owningId: String, relatedId: String)] = []

    init(entry: ImportInput.Entry, line: Int, records: Int) {
        self.entry = entry
        self.line = line
        self.records = records
    }

    var count: Int { inserts.count + sessions.count + members.count }
}

/// An object validated and ready to insert.
struct PreparedInsert {
    var line: Int
    var command: WriteCommand.Insert
    /// For a `_File` row: its storage key, key in the export, old URL and name, for the content's carrier.
    var file: (storageKey: String, sourceKey: String, url: String?, name: String?)?
    /// A user the export gives no way to log in with a password (Bmob).
    var needsPasswordReset: Bool
}

/// Counts the bytes read into the progress.
final class CountingSource: ByteSource {
    private let base: any ByteSource
    private let progress: ImportProgress

    init(_ base: any ByteSource, progress: ImportProgress) {
        self.base = base
        self.progress = progress
    }

    func read(max: Int) throws -> [UInt8] {
        let chunk = try base.read(max: max)
        progress.doneBytes += Int64(chunk.count)
        return chunk
    }
}
