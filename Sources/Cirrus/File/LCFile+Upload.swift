import CirrusModel
public import Foundation

extension LCFile {
    /// Uploads the file (or records an external URL); `progress` gets the fraction uploaded, 1 at the end.
    /// - Throws: `LCError` when the payload cannot be read or the server refuses the file.
    public func save(progress: @escaping @Sendable (Double) -> Void) async throws {
        try await upload(progress: progress)
    }

    /// The upload of a new file: an external URL with `POST /1.1/files`; contents with `fileTokens`, a `PUT` of the
    /// bytes to `upload_url` and `fileCallback`.
    func upload(progress: (@Sendable (Double) -> Void)?) async throws {
        guard objectId == nil else { return }
        guard let payload else {
            guard url != nil else { throw LCError.inconsistency("The file has neither a payload nor a URL.") }
            return try await saveExternal()
        }
        let data = try Self.read(payload)
        let client = RESTClient(application: application)
        let token = try await client.send("POST", "/fileTokens", body: tokenRequest(size: data.count, checksum: MD5.hex(data)))
        guard let uploadToken = token["token"]?.stringValue, let target = token["upload_url"]?.stringValue.flatMap(URL.init(string:)) else {
            throw LCError.malformed("The fileTokens reply has no token or upload_url.")
        }
        do {
            try await put(data, to: target, mimeType: token["mime_type"]?.stringValue, progress: progress)
        } catch {
            _ = try? await client.send("POST", "/fileCallback", body: ["token": .string(uploadToken), "result": false])
            throw LCError(error: error)
        }
        _ = try? await client.send("POST", "/fileCallback", body: ["token": .string(uploadToken), "result": true])
        didUpload(token)
        progress?(1)
    }

    /// `{"name","mime_type","metaData","ACL"}` of `fileTokens`.
    private func tokenRequest(size: Int, checksum: String) -> JSON {
        var metaData = metaData.value.mapValues(ValueCoder.encode)
        metaData["size"] = .int(Int64(size))
        metaData["_checksum"] = .string(checksum)
        metaData["owner"] = .string(application.currentUser?.objectId?.value ?? "unknown")
        var body: [String: JSON] = ["name": .string(name?.value ?? "file"), "metaData": .object(metaData)]
        if let mimeType { body["mime_type"] = .string(mimeType.value) }
        if let acl = ACL { body["ACL"] = ValueCoder.encode(acl) }
        return .object(body)
    }

    /// `PUT` of the bytes, without the app's headers (the URL carries its own token).
    private func put(_ data: Data, to target: URL, mimeType: String?, progress: (@Sendable (Double) -> Void)?) async throws {
        let headers = [
            "Content-Type": mimeType ?? self.mimeType?.value ?? "application/octet-stream",
            "Cache-Control": "public, max-age=31536000",
        ]
        let request = TransportRequest(method: "PUT", url: target, headers: headers, body: data, progress: progress)
        let response = try await application.send(request)
        guard (200..<300).contains(response.status) else {
            _ = try RESTClient.decode(response)
            throw LCError(code: response.status, reason: "The upload answered HTTP \(response.status).")
        }
    }

    /// Records the `fileTokens` reply, without its upload credentials, as the file's fields.
    private func didUpload(_ token: JSON) {
        var members = token.objectValue ?? [:]
        for secret in ["token", "upload_url", "access_key", "access_token", "provider", "bucket"] { members[secret] = nil }
        lock.withLock { state.operations = [:] }
        merge(members, decoder: ObjectDecoder(application: application))
        dropPayload()
    }

    /// `POST /1.1/files {"name","url","mime_type","metaData"}`.
    private func saveExternal() async throws {
        var body: [String: JSON] = ["name": .string(name?.value ?? "file"), "url": .string(url?.value ?? "")]
        if let mimeType { body["mime_type"] = .string(mimeType.value) }
        if !metaData.value.isEmpty { body["metaData"] = .object(metaData.value.mapValues(ValueCoder.encode)) }
        let reply = try await RESTClient(application: application).send("POST", "/files", body: .object(body))
        lock.withLock { state.operations = [:] }
        merge(reply.objectValue ?? [:], decoder: ObjectDecoder(application: application))
    }

    private static func read(_ payload: Payload) throws -> Data {
        switch payload {
        case .data(let data): return data
        case .fileURL(let url):
            do {
                return try Data(contentsOf: url)
            } catch {
                throw LCError(code: .underlyingError, reason: "Cannot read \(url.path).", underlyingError: error)
            }
        }
    }
}

// The completion-handler and blocking forms of the upload.
extension LCFile {
    /// Uploads the file; `progress` gets the fraction uploaded on `completionQueue`, `completion` the result.
    @discardableResult
    public func save(
        progress: @escaping (Double) -> Void, completionQueue: DispatchQueue = .main, completion: @escaping (LCBooleanResult) -> Void
    ) -> LCRequest {
        let report = UncheckedBox(progress)
        return Call.start(on: completionQueue, completion: completion) {
            try await self.save(progress: { fraction in completionQueue.async { report.value(fraction) } })
        }
    }
}
