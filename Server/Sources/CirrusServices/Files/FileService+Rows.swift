import CirrusModel
import CirrusStorage

/// The `_File` rows behind the uploads.
extension FileService {
    /// Creates the row of a file: its name, key, type, storage and metadata.
    /// - Parameter serverMetaData: metadata the server sets (`__source`), beside the client's checked keys.
    func createRow(
        _ upload: Upload, size: Int64?, checksum: String?, caller: Caller, url: String? = nil, serverMetaData: [String: JSON] = [:]
    ) async throws -> StoredObject {
        try FileNaming.check(upload.name)
        if upload.key != nil, !caller.isMaster { throw APIError(.masterKeyRequired, "Only the master key may choose a file's key.") }
        let key = upload.key ?? FileNaming.key(for: upload.name, keepFileName: upload.keepFileName)
        guard FileKey.isValid(key) else { throw APIError(.invalidFileName, "Invalid file key '\(key)': letters, digits, '.', '_' and '-'.") }
        for name in upload.metaData.keys where !FieldName.isValidNestedKey(name) {
            throw APIError(.invalidNestedKey, "Keys in metaData may not contain '$' or '.', nor start with '__': '\(name)'.")
        }
        var metaData = upload.metaData.merging(serverMetaData) { $1 }
        metaData["owner"] = .string(caller.userId ?? "unknown")
        if let size { metaData["size"] = .int(size) }
        if let checksum { metaData["_checksum"] = .string(checksum) }
        var fields: [String: JSON] = [
            "name": .string(upload.name), "key": .string(key), "mime_type": .string(MIMETypes.type(given: upload.mimeType, name: upload.name)),
            "bucket": "cirrus", "provider": .string(storage.name),
        ]
        if let url { fields["url"] = .string(url) }
        if let acl = upload.acl { fields["ACL"] = acl.wire }
        // The server's own metadata keys (`__source`) are not allowed in a client's body, so it is set apart.
        var metaValues: [String: Value] = [:]
        for (name, value) in metaData { metaValues[name] = try Value(wire: value) }
        let command = try await objects.prepareFileRow(body: .object(fields), metaData: .object(metaValues), caller: caller)
        return try await objects.performOne(.insert(command), className: "_File").object
    }

    /// The row with this objectId, read with the master key.
    func row(_ fileId: String) async throws -> StoredObject? {
        guard ObjectID.isAcceptable(fileId) else { return nil }
        return try await objects.store.fetch(className: "_File", ids: [fileId]).first
    }

    /// The row of a stored content, by its key.
    func row(key: String) async throws -> StoredObject? {
        guard let schema = try await objects.schemas.schema(of: "_File") else { return nil }
        let condition = Condition.compare(FieldPath(field: "key"), .equal, .string(key))
        return try await objects.store.find(StorageQuery(className: "_File", schema: schema, condition: condition, limit: 1)).first
    }

    func write(_ content: [UInt8], key: String, mimeType: String) async throws {
        do {
            try await storage.write(content, key: key, mimeType: mimeType)
        } catch FileStorageError.alreadyExists {
            throw Self.spentUpload
        } catch let error as FileStorageError {
            throw APIError(.internalError, "The file could not be stored: \(error).")
        }
    }

    func checkSize(_ size: Int) throws(APIError) {
        guard size <= settings.maximumSize else {
            throw APIError(.fileTooLarge, "The file is larger than \(settings.maximumSize) bytes.")
        }
    }

    /// Removes a row and its content, whoever asked (an upload that failed).
    func remove(_ file: StoredObject) async throws {
        let delete = WriteCommand.Delete(className: "_File", objectIds: [file.objectId], condition: nil, schema: nil)
        let results = try await objects.store.perform([.delete(delete)], atomically: false)
        if case .success(let result)? = results.first { await objects.record(.delete(delete), result: result) }
        if let key = file.fields["key"]?.stringValue { try await storage.delete(key: key) }
    }
}
