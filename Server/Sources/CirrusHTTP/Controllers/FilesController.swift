import CirrusModel
import CirrusServices
import CirrusStorage
import HTTPTypes

/// Uploads and file rows: LeanCloud's `fileTokens` + signed `PUT` + `fileCallback`, external files, `/files/<id>`;
/// Parse's and Bmob's raw uploads to `/files/<name>`.
struct FilesController: Sendable {
    let files: FileService
    let objects: ObjectsController

    /// Where the signed upload URLs point, below the LeanCloud prefix.
    static let uploadPath = "/1.1/fileUploads"

    func register(on router: inout APIRouter) {
        router.on(.post, "fileTokens", dialects: [.leancloud]) { try await startUpload($0) }
        router.on(.put, "fileUploads/:objectId", dialects: [.leancloud], authenticated: false, upload: true) { try await finishUpload($0) }
        router.on(.post, "fileCallback", dialects: [.leancloud]) { request in
            let body = try request.objectBody()
            if let token = body["token"]?.stringValue { try await files.uploadCallback(token: token, succeeded: body["result"]?.boolValue ?? true) }
            return APIResponse(body: [:])
        }
        router.on(.post, "files", dialects: [.leancloud]) { try await createExternal($0) }
        router.on(.get, "files/:objectId", dialects: [.leancloud]) { try await objects.get($0.addressing("_File")) }
        router.on(.delete, "files/:objectId", dialects: [.leancloud]) { try await delete($0) }
        router.on(.delete, "classes/_File/:objectId") { try await delete($0) }
        router.on(.post, "files/:name", dialects: [.parse], upload: true) { try await upload($0) }
        router.on(.post, "2/files/:name", dialects: [.bmob], upload: true) { try await upload($0) }
        router.on(.delete, "files/:name", dialects: [.parse]) { try await deleteByKey($0, key: $0.parameter("name")) }
        // bmobpy deletes `<url>` as `DELETE /2/files/upyun<path of url>`, the path being `/files/<key>` here.
        router.on(.delete, "2/files/:cdn/files/:key", dialects: [.bmob]) { try await deleteByKey($0, key: $0.parameter("key")) }
        router.on(.delete, "2/files/:cdn/:key", dialects: [.bmob]) { try await deleteByKey($0, key: $0.parameter("key")) }
        router.on(.post, "2/cdnBatchDelete", dialects: [.bmob]) { try await deleteBatch($0) }
    }


    /// `{name, mime_type, metaData, keep_file_name?, key?, ACL?}` → the row, `token`, `upload_url`, `provider: "s3"`:
    /// the provider whose protocol the SDKs drive with a plain `PUT` of the bytes to `upload_url`.
    func startUpload(_ request: APIRequest) async throws -> APIResponse {
        let body = try request.objectBody()
        let pending = try await files.startUpload(try Self.upload(body), uploadPath: Self.uploadPath, client: request.clientAddress, caller: request.caller)
        var reply = rowReply(pending.file)
        reply["token"] = .string(pending.token)
        reply["upload_url"] = .string(pending.uploadURL)
        reply["provider"] = "s3"
        return APIResponse(body: .object(reply))
    }

    /// The SDK's `PUT` of the content: no credentials but the signed token in the URL.
    func finishUpload(_ request: APIRequest) async throws -> APIResponse {
        let file = try await files.finishUpload(
            fileId: request.parameter("objectId"), token: request.query["token"] ?? "", content: request.bodyText ?? []
        )
        return APIResponse(body: ["objectId": .string(file.objectId)])
    }

    /// `POST /1.1/files {url, name, mime_type, metaData}`: an external file, answered like a create.
    func createExternal(_ request: APIRequest) async throws -> APIResponse {
        let body = try request.objectBody()
        guard let url = body["url"]?.stringValue else { throw APIError(.invalidParameter, "An external file needs a url.") }
        let file = try await files.storeExternal(try Self.upload(body), url: url, client: request.clientAddress, caller: request.caller)
        return APIResponse(status: .created, body: ["objectId": .string(file.objectId), "createdAt": .string(request.dialect.format(file.createdAt))],
            headers: [(.location, "\(request.pathPrefix)/files/\(file.objectId)")])
    }

    func delete(_ request: APIRequest) async throws -> APIResponse {
        try await files.delete(fileId: request.parameter("objectId"), caller: request.caller)
        return APIResponse(body: request.dialect.acknowledgement)
    }

    func deleteByKey(_ request: APIRequest, key: String) async throws -> APIResponse {
        try await files.delete(key: key, caller: request.caller)
        return APIResponse(body: request.dialect.acknowledgement)
    }

    /// Bmob's `POST /2/cdnBatchDelete {"<cdn>": ["<url without its domain>", …]}` → `{"msg":"ok"}`, or
    /// `{"code":154,"error":…,"fail":{"<cdn>":[…]}}` listing the URLs that could not be deleted (missing or denied).
    func deleteBatch(_ request: APIRequest) async throws -> APIResponse {
        let body = try request.objectBody()
        guard case .object(let groups) = body, !groups.isEmpty else {
            throw APIError(.invalidParameter, "Expected {\"<cdn>\": [\"<url>\", …]}.")
        }
        var failed: [String: JSON] = [:]
        for (cdn, value) in groups.sorted(by: { $0.key < $1.key }) {
            guard case .array(let urls) = value else { throw APIError(.invalidParameter, "The URLs of '\(cdn)' must be an array of strings.") }
            var failures: [JSON] = []
            for url in urls {
                guard let text = url.stringValue else { throw APIError(.invalidParameter, "The URLs of '\(cdn)' must be an array of strings.") }
                do {
                    try await files.delete(key: Self.key(ofURL: text), caller: request.caller)
                } catch let error as APIError where error.reason != .internalError {
                    failures.append(url)
                }
            }
            if !failures.isEmpty { failed[cdn] = .array(failures) }
        }
        guard !failed.isEmpty else { return APIResponse(body: Dialect.bmob.acknowledgement) }
        return APIResponse(status: .badRequest, body: ["code": 154, "error": "Some files could not be deleted.", "fail": .object(failed)])
    }

    /// The key in a file URL, with or without its scheme and host (`…/files/<key>`, `files/<key>`, `<key>`).
    static func key(ofURL url: String) -> String {
        let path = url.split(separator: "?", maxSplits: 1).first.map(String.init) ?? url
        return path.split(separator: "/").last.map(String.init) ?? path
    }

    /// Parse `POST /files/<name>` → 201 `{name, url}`; Bmob `POST /2/files/<name>` → `{filename, url, cdn}`. The
    /// body is the content; its type is the request's `Content-Type`, else the name's.
    func upload(_ request: APIRequest) async throws -> APIResponse {
        let name = request.parameter("name")
        if request.dialect == .bmob, FileNaming.fileExtension(name) == nil {
            // Bmob's REST guide: the name must carry an extension (146).
            throw APIError(.invalidFileName, "The file name '\(name)' needs an extension.")
        }
        let upload = FileService.Upload(name: name, mimeType: request.contentType)
        let file = try await files.store(upload, content: request.bodyText ?? [], client: request.clientAddress, caller: request.caller)
        let key = file.fields["key"]?.stringValue ?? ""
        let url = files.settings.url(forKey: key)
        if request.dialect == .bmob {
            return APIResponse(body: ["filename": .string(name), "url": .string(url), "cdn": "cirrus"])
        }
        return APIResponse(status: .created, body: ["name": .string(key), "url": .string(url)], headers: [(.location, url)])
    }

    /// The reply shape of a file row, as LeanCloud returns it.
    func rowReply(_ file: StoredObject) -> [String: JSON] {
        var reply = file.fields
        reply["objectId"] = .string(file.objectId)
        reply["createdAt"] = .string(file.createdAt.iso8601)
        reply["url"] = reply["url"] ?? .string(files.settings.url(forKey: file.fields["key"]?.stringValue ?? ""))
        return reply
    }

    static func upload(_ body: JSON) throws(APIError) -> FileService.Upload {
        guard let name = body["name"]?.stringValue else { throw APIError(.invalidFileName, "A file needs a name.") }
        var upload = FileService.Upload(name: name, mimeType: body["mime_type"]?.stringValue)
        // `owner` is the server's to set, and the SDKs mark external files with `__source` themselves.
        if case .object(let metaData)? = body["metaData"] { upload.metaData = metaData.filter { $0.key != "owner" && $0.key != "__source" } }
        upload.keepFileName = body["keep_file_name"]?.boolValue ?? false
        upload.key = body["key"]?.stringValue
        if let acl = body["ACL"], !acl.isNull { upload.acl = try ACL(wire: acl) }
        return upload
    }
}
