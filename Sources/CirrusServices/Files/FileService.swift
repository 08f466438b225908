public import CirrusModel
public import CirrusStorage
import Crypto

/// Files: `_File` rows that describe contents kept in a ``FileStorage``.
///
/// A row holds `name`, `key`, `mime_type`, `bucket`, `provider` and `metaData` (`size`, `owner`, `_checksum` and
/// what the client added); its `url` is built on each read from the public URL, except for external files, whose
/// URL is stored. Rows do not change after the upload.
public struct FileService: Sendable {
    public let objects: ObjectService
    public let storage: any FileStorage
    public let settings: FileSettings

    public init(objects: ObjectService, storage: any FileStorage, settings: FileSettings) {
        self.objects = objects
        self.storage = storage
        self.settings = settings
    }

    /// What a client asks for when it starts an upload or sends a file.
    public struct Upload: Sendable {
        public var name: String
        public var mimeType: String?
        /// The client's metadata (`size`, `_checksum`, custom keys); `owner` is set by the server.
        public var metaData: [String: JSON]
        public var keepFileName: Bool
        /// A key the master key chose.
        public var key: String?
        public var acl: ACL?

        public init(name: String, mimeType: String? = nil, metaData: [String: JSON] = [:], keepFileName: Bool = false, key: String? = nil, acl: ACL? = nil) {
            self.name = name
            self.mimeType = mimeType
            self.metaData = metaData
            self.keepFileName = keepFileName
            self.key = key
            self.acl = acl
        }
    }

    /// A `_File` row created for an upload to come, and the URL the content is to be `PUT` to.
    public struct PendingUpload: Sendable {
        public var file: StoredObject
        public var token: String
        public var uploadURL: String
    }

    /// Counts an upload (a `fileTokens`, a raw upload, an external file) against the client's rate limit. The
    /// master key, and requests whose client is unknown, are not limited.
    /// - Throws: ``APIError`` ``APIError/Reason/rateLimited`` (LeanCloud 430) beyond the limit.
    public func admitUpload(client: String?, caller: Caller) async throws {
        guard let client, !caller.isMaster else { return }
        try await RateLimiter(store: objects.store, limit: settings.uploadRate, now: objects.configuration.accounts.clock()).admit("upload", client: client)
    }

    /// LeanCloud's `fileTokens`: creates the row and a signed upload URL on this server.
    /// - Throws: ``APIError`` for an invalid name (122), a key without the master key.
    public func startUpload(_ upload: Upload, uploadPath: String, caller: Caller) async throws -> PendingUpload {
        let file = try await createRow(upload, size: upload.metaData["size"]?.intValue, checksum: upload.metaData["_checksum"]?.stringValue, caller: caller)
        let token = UploadToken(
            fileId: file.objectId, expiresAt: Timestamp(millisecondsSince1970: objects.configuration.accounts.clock().millisecondsSince1970 + settings.uploadLifetime)
        ).encoded(key: settings.signingKey)
        let url = settings.publicURL + uploadPath + "/" + file.objectId + "?token=" + token
        return PendingUpload(file: file, token: token, uploadURL: url)
    }

    /// The `PUT` of a signed upload URL: stores the content and completes the row.
    /// - Throws: ``APIError`` ``APIError/Reason/unauthorized`` for a wrong or expired token,
    ///   ``APIError/Reason/fileTooLarge`` beyond the size limit.
    public func finishUpload(fileId: String, token: String, content: [UInt8]) async throws -> StoredObject {
        guard let upload = UploadToken.decode(token, key: settings.signingKey), upload.fileId == fileId,
            objects.configuration.accounts.clock().millisecondsSince1970 < upload.expiresAt.millisecondsSince1970
        else { throw APIError(.unauthorized, "The upload URL is invalid or has expired.") }
        try checkSize(content.count)
        guard let file = try await row(fileId), let key = file.fields["key"]?.stringValue else {
            throw APIError(.objectNotFound, "The file of this upload no longer exists.")
        }
        try await write(content, key: key, mimeType: file.fields["mime_type"]?.stringValue ?? MIMETypes.fallback)
        return file
    }

    /// LeanCloud's `fileCallback`: `result: false` means the upload failed, so the row and any content go.
    public func uploadCallback(token: String, succeeded: Bool) async throws {
        guard let upload = UploadToken.decode(token, key: settings.signingKey) else { return }
        guard !succeeded, let file = try await row(upload.fileId) else { return }
        try await remove(file)
    }

    /// Parse's and Bmob's upload: the row and the content at once.
    public func store(_ upload: Upload, content: [UInt8], caller: Caller) async throws -> StoredObject {
        try checkSize(content.count)
        let checksum = Insecure.MD5.hash(data: content).map { byte in (byte < 16 ? "0" : "") + String(byte, radix: 16) }.joined()
        let file = try await createRow(upload, size: Int64(content.count), checksum: checksum, caller: caller)
        do {
            try await write(content, key: file.fields["key"]?.stringValue ?? "", mimeType: file.fields["mime_type"]?.stringValue ?? MIMETypes.fallback)
        } catch {
            try? await remove(file)
            throw error
        }
        return file
    }

    /// A file that only points to an external URL (`POST /1.1/files {url, name}`): no content, no size.
    public func storeExternal(_ upload: Upload, url: String, caller: Caller) async throws -> StoredObject {
        guard url.hasPrefix("http://") || url.hasPrefix("https://") else { throw APIError(.invalidParameter, "An external file needs an http(s) url.") }
        return try await createRow(upload, size: nil, checksum: nil, caller: caller, url: url, serverMetaData: ["__source": "external"])
    }

    /// Deletes a file and its content: the master key, or a caller the `_File` delete permission (closed by default)
    /// and the row's ACL allow.
    public func delete(fileId: String, caller: Caller) async throws {
        let key = try await row(fileId)?.fields["key"]?.stringValue
        try await objects.delete("_File", objectIds: [fileId], condition: nil, caller: caller)
        if let key { try await storage.delete(key: key) }
    }

    /// Deletes the file stored under `key` (Parse and Bmob name files by their URL, not their objectId).
    /// - Throws: ``APIError`` ``APIError/Reason/objectNotFound`` when no file has that key.
    public func delete(key: String, caller: Caller) async throws {
        guard FileKey.isValid(key), let file = try await row(key: key) else { throw APIError(.objectNotFound, "No file has the key '\(key)'.") }
        try await delete(fileId: file.objectId, caller: caller)
    }

    /// The key that signs upload URLs, derived from the master key.
    public static func signingKey(masterKey: String) -> [UInt8] {
        UploadToken.signingKey(masterKey: masterKey)
    }

    /// Where the content of a stored file can be downloaded from directly (a presigned URL of the object store), or
    /// `nil` when there is no such file or the server serves its content itself.
    public func downloadRedirect(key: String) async throws -> String? {
        guard FileKey.isValid(key), let url = try storage.downloadURL(key: key), try await row(key: key) != nil else { return nil }
        return url
    }

    /// The content of a key, or the bytes of `range` in it, and its row (for the type).
    public func content(key: String, range: Range<Int>?) async throws -> (content: FileContent, mimeType: String)? {
        guard FileKey.isValid(key), let file = try await row(key: key), let content = try await storage.read(key: key, range: range) else { return nil }
        return (content, file.fields["mime_type"]?.stringValue ?? MIMETypes.fallback)
    }
}
