import CirrusModel
import CirrusServices
import CirrusStorage

extension ImportRun {
    /// Decodes and validates one object as a master-key REST create would, keeping its id, dates and ACL.
    func prepareInsert(_ members: [String: JSON], className: String, line: Int) async throws -> PreparedInsert {
        let record = try decoder.decode(members, className: className, line: line)
        var fields = record.fields
        try await linkFiles(&fields)
        var prepared: PreparedInsert
        if className == "_File" {
            prepared = try await prepareFileRow(record, fields: fields, line: line)
        } else {
            var body = fields
            if let acl = record.acl { body["ACL"] = acl }
            if let password = record.plainPassword { body["password"] = .string(password) }
            let writeOptions = WriteOptions(idStyle: decoder.idStyle, defaultOffsetMinutes: decoder.defaultOffsetMinutes)
            let command = try await objects.prepareCreate(className, body: .object(body), options: writeOptions, caller: .master)
            prepared = PreparedInsert(line: line, command: command, file: nil, needsPasswordReset: false)
        }
        prepared.command.object.objectId = record.objectId
        prepared.command.object.createdAt = record.createdAt
        prepared.command.object.updatedAt = record.updatedAt
        // No ACL in the export: none stored (public read and write, LeanCloud's default), whatever the class default.
        if record.acl == nil { prepared.command.object.acl = nil }
        if className == "_User" { addAccountWrites(record, to: &prepared) }
        try checkDryRunTypes(prepared.command)
        return prepared
    }

    /// The user's password and stable session, written in the user's transaction.
    private func addAccountWrites(_ record: DecodedRecord, to prepared: inout PreparedInsert) {
        let userId = record.objectId
        // The writes were prepared for a new objectId; the user keeps the exported one.
        var writes: [AccountWrite] = prepared.command.accountWrites.map { write in
            switch write {
            case .setPassword(_, let password): .setPassword(userId: userId, password: password)
            case .linkAccount(_, let platform, let uid): .linkAccount(userId: userId, platform: platform, uid: uid)
            case .unlinkAccount(_, let platform): .unlinkAccount(userId: userId, platform: platform)
            default: write
            }
        }
        if let stored = record.storedPassword { writes.append(.setPassword(userId: userId, password: stored)) }
        if let token = record.sessionToken {
            writes.append(
                .createSession(
                    StoredSession(
                        token: token, sessionId: ObjectID.make(.alphanumeric10), userId: userId, kind: .stable, createdAt: record.createdAt,
                        expiresAt: nil
                    )
                )
            )
        }
        prepared.command.accountWrites = writes
        let hasPassword = record.storedPassword != nil || record.plainPassword != nil
        prepared.needsPasswordReset = options.source == .bmob && !hasPassword && record.fields["authData"] == nil
    }

    /// A `_File` row: its key made storable (``ImportedFileKey``), its old URL dropped unless the file is external
    /// (Cirrus builds the URL of its own files from the key and its public URL).
    private func prepareFileRow(_ record: DecodedRecord, fields exported: [String: JSON], line: Int) async throws -> PreparedInsert {
        var fields = exported
        let sourceKey = fields["key"]?.stringValue ?? fields["name"]?.stringValue ?? record.objectId
        let storageKey = ImportedFileKey.make(from: sourceKey)
        let metaData = fields.removeValue(forKey: "metaData")
        let oldURL = fields.removeValue(forKey: "url")?.stringValue
        let external = metaData?["__source"]?.stringValue == "external"
        if external, let oldURL { fields["url"] = .string(oldURL) }
        fields["key"] = .string(storageKey)
        if !external, let provider = options.fileProvider {
            fields["provider"] = .string(provider)
            fields["bucket"] = "cirrus"
        }
        if let acl = record.acl { fields["ACL"] = acl }
        var update = try ObjectUpdate(body: .object(fields), isCreate: true, defaultOffsetMinutes: decoder.defaultOffsetMinutes)
        if let metaData, !metaData.isNull {
            guard case .object(let members) = metaData else { throw APIError(.incorrectType, "A file's metaData must be an object.") }
            // Member by member, as the file service does: the server's own keys (`__source`) are kept.
            var values: [String: Value] = [:]
            for (name, value) in members { values[name] = try Value(wire: value) }
            update.set("metaData", .set(.object(values)))
        }
        let schema = try await objects.schemas.schema(of: "_File")
        let command = try WritePlanner(className: "_File", schema: schema, configuration: objects.configuration)
            .insert(update, options: WriteOptions(idStyle: .hex24), now: Timestamp.now())
        let name = fields["name"]?.stringValue
        return PreparedInsert(line: line, command: command, file: (storageKey, sourceKey, oldURL, name), needsPasswordReset: false)
    }

    /// Rewrites file values that name a `_File` row (by id, key, name or URL) as `{"__type":"File","id"}`, what Cirrus
    /// stores; others (external URLs, files the export does not have) stay as exported.
    private func linkFiles(_ fields: inout [String: JSON]) async throws {
        var found: [ExportedFileValue] = []
        for value in fields.values { found += ExportedFileValue.all(in: value) }
        guard !found.isEmpty else { return }
        let schema = try await objects.schemas.schema(of: "_File")
        var ids: [ExportedFileValue: String] = [:]
        for file in Set(found) { if let id = try await files.resolve(file, schema: schema) { ids[file] = id } }
        for (name, value) in fields {
            fields[name] = ExportedFileValue.map(value) { file, original in
                ids[file].map(ExportedFileValue.reference(id:)) ?? original
            }
        }
    }

    /// In a dry run nothing records field types, so conflicts between rows are looked for here.
    private func checkDryRunTypes(_ command: WriteCommand.Insert) throws {
        guard options.dryRun else { return }
        let className = command.object.className
        for (field, type) in command.newFields {
            if let earlier = dryRunFields[className]?[field], earlier != type {
                throw APIError(.incorrectType, "Invalid value type for field '\(field)': expected \(earlier) but got \(type).")
            }
            dryRunFields[className, default: [:]][field] = type
        }
    }

    /// Inserts the batch's objects, skipping those whose objectId exists.
    func writeInserts(_ batch: PendingBatch) async throws {
        let className = batch.inserts[0].command.object.className
        let ids = batch.inserts.map(\.command.object.objectId)
        var existing = Set(try await store.fetch(className: className, ids: ids).map(\.objectId))
        var toWrite: [PreparedInsert] = []
        var present: [PreparedInsert] = []
        for insert in batch.inserts {
            let id = insert.command.object.objectId
            if existing.contains(id) {
                summary.count(className) { $0.skipped += 1 }
                present.append(insert)
            } else {
                existing.insert(id)
                toWrite.append(insert)
            }
        }
        if options.dryRun {
            for insert in toWrite {
                imported(insert, batch)
                if insert.file != nil { present.append(insert) }
            }
        } else if !toWrite.isEmpty {
            let results = try await perform(toWrite.map { .insert($0.command) })
            for (insert, result) in zip(toWrite, results) {
                switch result {
                case .success:
                    imported(insert, batch)
                    if insert.file != nil { present.append(insert) }
                case .failure(let error):
                    fail(batch.entry, line: insert.line, objectId: insert.command.object.objectId, reason: Self.reason(error, className))
                }
            }
            objects.schemas.invalidate(className)
        }
        for insert in present { try await carry(insert, batch) }
    }

    private func imported(_ insert: PreparedInsert, _ batch: PendingBatch) {
        let object = insert.command.object
        summary.count(object.className) { $0.imported += 1 }
        if insert.needsPasswordReset {
            let username = object.fields["username"]?.stringValue
            summary.passwordResets.append(username ?? object.objectId)
            report.passwordReset(file: batch.entry.name, line: insert.line, objectId: object.objectId, username: username)
        }
    }

    /// Brings a file row's content over, and remembers the row for the file values of later classes.
    private func carry(_ insert: PreparedInsert, _ batch: PendingBatch) async throws {
        guard let file = insert.file else { return }
        let id = insert.command.object.objectId
        files.remember(id: id, originalKey: file.sourceKey, storageKey: file.storageKey, name: file.name, url: file.url)
        guard let carrier, !options.dryRun else { return }
        let outcome: FileCarryOutcome
        do {
            let url = file.url ?? options.fileDomain.map { $0 + "/" + file.sourceKey }
            outcome = try await carrier.carry(key: file.storageKey, sourceKey: file.sourceKey, url: url, name: file.name)
        } catch {
            outcome = .failed("\(error)")
        }
        switch outcome {
        case .copied: summary.filesCopied += 1
        case .failed(let reason):
            summary.fileFailures += 1
            report.failure(
                file: batch.entry.name, line: insert.line, className: "_File", objectId: id, reason: "File content of \(file.sourceKey): \(reason)"
            )
        case .alreadyPresent, .notRequested: break
        }
    }
}
