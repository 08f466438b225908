package import CirrusModel
package import CirrusStorage

/// Files: `_File` rows that describe contents kept in a ``FileStorage``.
///
/// A row holds `name`, `key`, `mime_type`, `bucket`, `provider` and `metaData` (`size`, `owner`, `_checksum` and
/// what the client added); its `url` is built on each read from the public URL, except for external files, whose
/// URL is stored. Rows do not change after the upload.
package struct FileService: Sendable {
    package let objects: ObjectService
    package let storage: any FileStorage
    package let settings: FileSettings

    package init(objects: ObjectService, storage: any FileStorage, settings: FileSettings) {
        self.objects = objects
        self.storage = storage
        self.settings = settings
    }

    /// What a client asks for when it starts an upload or sends a file.
    package struct Upload: Sendable {
        package var name: String
        package var mimeType: String?
        /// The client's metadata (`size`, `_checksum`, custom keys); `owner` is set by the server.
        package var metaData: [String: JSON]
        package var keepFileName: Bool
        /// A key the master key chose.
        package var key: String?
        package var acl: ACL?

        package init(name: String, mimeType: String? = nil, metaData: [String: JSON] = [:], keepFileName: Bool = false, key: String? = nil, acl: ACL? = nil) {
            self.name = name
            self.mimeType = mimeType
            self.metaData = metaData
            self.keepFileName = keepFileName
            self.key = key
            self.acl = acl
        }
    }

    /// A `_File` row created for an upload to come, and the URL the content is to be `PUT` to.
    package struct PendingUpload: Sendable {
        package var file: StoredObject
        package var token: String
        package var uploadURL: String
    }

    /// LeanCloud's `fileTokens`: creates the row and a signed upload URL on this server. Each token counts against
    /// the client's upload rate, whatever path asked for it (a request, a batch).
    /// - Parameter client: the client's network address, for the rate limit (`nil`: unknown, not limited).
    /// - Throws: ``APIError`` for an invalid name (122), a key without the master key, too many uploads (430).
    package func startUpload(_ upload: Upload, uploadPath: String, client: String?, caller: Caller) async throws -> PendingUpload {
        try await admitUpload(client: client, caller: caller)
        let file = try await createRow(upload, size: upload.metaData["size"]?.intValue, checksum: upload.metaData["_checksum"]?.stringValue, caller: caller)
        let token = UploadToken(
            fileId: file.objectId, expiresAt: Timestamp(millisecondsSince1970: objects.configuration.accounts.clock().millisecondsSince1970 + settings.uploadLifetime)
        ).encoded(key: settings.signingKey)
        let url = settings.publicURL + uploadPath + "/" + file.objectId + "?token=" + token
        return PendingUpload(file: file, token: token, uploadURL: url)
    }

    /// The `PUT` of a signed upload URL: stores the content once and completes the row. The content must have the
    /// `size` and `_checksum` (MD5) the client announced in `fileTokens`; a URL whose upload succeeded is spent, so
    /// a stored content never changes.
    /// - Throws: ``APIError`` ``APIError/Reason/unauthorized`` for a wrong, expired or spent token,
    ///   ``APIError/Reason/fileTooLarge`` beyond the size limit, ``APIError/Reason/invalidParameter`` for a content
    ///   that is not the one announced.
    package func finishUpload(fileId: String, token: String, content: [UInt8]) async throws -> StoredObject {
        guard let upload = UploadToken.decode(token, key: settings.signingKey), upload.fileId == fileId, isValid(upload) else {
            throw APIError(.unauthorized, "The upload URL is invalid or has expired.")
        }
        try checkSize(content.count)
        guard let file = try await row(fileId), let key = file.fields["key"]?.stringValue else {
            throw APIError(.objectNotFound, "The file of this upload no longer exists.")
        }
        // A spent URL says so whatever is sent: what the content would be checked against no longer matters.
        guard try await storage.read(key: key, range: 0..<0) == nil else { throw Self.spentUpload }
        try UploadClaims(metaData: file.fields["metaData"]).check(content)
        try await write(content, key: key, mimeType: file.fields["mime_type"]?.stringValue ?? MIMETypes.fallback)
        return file
    }

    static let spentUpload = APIError(.unauthorized, "This upload URL has been used: a file's content does not change.")

    /// LeanCloud's `fileCallback`: `result: false` means the upload failed, so the row and any content go, while the
    /// token is valid (after it, the file is the app's to delete).
    package func uploadCallback(token: String, succeeded: Bool) async throws {
        guard !succeeded, let upload = UploadToken.decode(token, key: settings.signingKey), isValid(upload),
            let file = try await row(upload.fileId)
        else { return }
        try await remove(file)
    }

    private func isValid(_ upload: UploadToken) -> Bool {
        objects.configuration.accounts.clock().millisecondsSince1970 < upload.expiresAt.millisecondsSince1970
    }

    /// Parse's and Bmob's upload: the row and the content at once, counted against the client's upload rate.
    package func store(_ upload: Upload, content: [UInt8], client: String?, caller: Caller) async throws -> StoredObject {
        try checkSize(content.count)
        try await admitUpload(client: client, caller: caller)
        let file = try await createRow(upload, size: Int64(content.count), checksum: UploadClaims.md5(content), caller: caller)
        do {
            try await write(content, key: file.fields["key"]?.stringValue ?? "", mimeType: file.fields["mime_type"]?.stringValue ?? MIMETypes.fallback)
        } catch {
            try? await remove(file)
            throw error
        }
        return file
    }

    /// A file that only points to an external URL (`POST /1.1/files {url, name}`): no content, no size.
    package func storeExternal(_ upload: Upload, url: String, client: String?, caller: Caller) async throws -> StoredObject {
        guard url.hasPrefix("http://") || url.hasPrefix("https://") else { throw APIError(.invalidParameter, "An external file needs an http(s) url.") }
        try await admitUpload(client: client, caller: caller)
        return try await createRow(upload, size: nil, checksum: nil, caller: caller, url: url, serverMetaData: ["__source": "external"])
    }

    /// Deletes a file and its content: the master key, or a caller the `_File` delete permission (closed by default)
    /// and the row's ACL allow.
    package func delete(fileId: String, caller: Caller) async throws {
        let key = try await row(fileId)?.fields["key"]?.stringValue
        try await objects.delete("_File", objectIds: [fileId], condition: nil, caller: caller)
        if let key { try await storage.delete(key: key) }
    }

    /// Deletes the file stored under `key` (Parse and Bmob name files by their URL, not their objectId).
    /// - Throws: ``APIError`` ``APIError/Reason/objectNotFound`` when no file has that key.
    package func delete(key: String, caller: Caller) async throws {
        guard FileKey.isValid(key), let file = try await row(key: key) else { throw APIError(.objectNotFound, "No file has the key '\(key)'.") }
        try await delete(fileId: file.objectId, caller: caller)
    }

    /// A content's `_checksum`: its MD5 in lower-case hex, as the LeanCloud SDKs send it.
    package static func checksum(_ content: [UInt8]) -> String {
        UploadClaims.md5(content)
    }

    /// The key that signs upload URLs, derived from the master key.
    package static func signingKey(masterKey: String) -> [UInt8] {
        UploadToken.signingKey(masterKey: masterKey)
    }

    /// Where the content of a stored file can be downloaded from directly (a presigned URL of the object store), or
    /// `nil` when there is no such file or the server serves its content itself.
    package func downloadRedirect(key: String) async throws -> String? {
        guard FileKey.isValid(key), let url = try storage.downloadURL(key: key), try await row(key: key) != nil else { return nil }
        return url
    }

    /// A stored content as it is served: its bytes (or those of a range), type and name, and whether a browser may
    /// show it inline (``MIMETypes/isPassive(_:)``) rather than only save it.
    package struct Download: Sendable {
        package var content: FileContent
        package var mimeType: String
        package var name: String
        package var isInline: Bool
    }

    /// The content of a key, or the bytes of `range` in it, with its row's type and name.
    package func download(key: String, range: Range<Int>?) async throws -> Download? {
        guard FileKey.isValid(key), let file = try await row(key: key), let content = try await storage.read(key: key, range: range) else { return nil }
        let mimeType = file.fields["mime_type"]?.stringValue ?? MIMETypes.fallback
        return Download(content: content, mimeType: mimeType, name: file.fields["name"]?.stringValue ?? key, isInline: MIMETypes.isPassive(mimeType))
    }

    /// Counts an upload (a `fileTokens`, a raw upload, an external file) against the client's rate limit. The
    /// master key, and requests whose client is unknown, are not limited.
    /// - Throws: ``APIError`` ``APIError/Reason/rateLimited`` (LeanCloud 430) beyond the limit.
    func admitUpload(client: String?, caller: Caller) async throws {
        guard let client, !caller.isMaster else { return }
        try await RateLimiter(store: objects.store, limit: settings.uploadRate, now: objects.configuration.accounts.clock()).admit("upload", client: client)
    }
}
