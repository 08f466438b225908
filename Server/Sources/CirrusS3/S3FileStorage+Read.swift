package import CirrusStorage

extension S3FileStorage {
    /// The object of `key`, or the bytes of `range` within it (a `Range: bytes=a-b` GET), or nil when there is none.
    ///
    /// S3 answers 416 to a range that starts at or past the end; the size then comes from a HEAD and the read is
    /// empty, as it is for an empty range.
    package func read(key: String, range: Range<Int>?) async throws -> FileContent? {
        var request = try objectRequest("GET", key: key)
        guard let range else { return try await readWhole(request, key: key) }
        let start = max(range.lowerBound, 0)
        guard range.upperBound > start else { return try await emptyRead(key: key, at: start) }
        request.headers["range"] = "bytes=\(start)-\(range.upperBound - 1)"
        let response = try await send(request)
        switch response.status {
        case 206:
            guard let contentRange = response.headers["content-range"].flatMap(ContentRange.init) else {
                throw FileStorageError.failed("S3 GET \(endpoint.objectName(key)): 206 without a valid Content-Range")
            }
            return FileContent(bytes: response.body, offset: contentRange.first, totalSize: contentRange.total)
        case 200:
            return Self.clamped(response.body, to: start..<range.upperBound)
        case 416:
            return try await emptyRead(key: key, at: start)
        default:
            return try Self.missingOrFailure(response, "GET \(endpoint.objectName(key))")
        }
    }

    private func readWhole(_ request: S3Request, key: String) async throws -> FileContent? {
        let response = try await send(request)
        guard response.status == 200 else { return try Self.missingOrFailure(response, "GET \(endpoint.objectName(key))") }
        return FileContent(bytes: response.body, offset: 0, totalSize: response.body.count)
    }

    /// No bytes at `start` (clamped to the size a HEAD reports), or nil when there is no object.
    private func emptyRead(key: String, at start: Int) async throws -> FileContent? {
        let response = try await send(try objectRequest("HEAD", key: key))
        guard response.status == 200 else { return try Self.missingOrFailure(response, "HEAD \(endpoint.objectName(key))") }
        guard let size = response.contentLength else {
            throw FileStorageError.failed("S3 HEAD \(endpoint.objectName(key)): no Content-Length")
        }
        return FileContent(bytes: [], offset: min(start, size), totalSize: size)
    }

    /// The part of a whole content within `range`, for a server that ignored the `Range` header.
    static func clamped(_ whole: [UInt8], to range: Range<Int>) -> FileContent {
        let start = min(range.lowerBound, whole.count)
        let end = max(min(range.upperBound, whole.count), start)
        return FileContent(bytes: Array(whole[start..<end]), offset: start, totalSize: whole.count)
    }

    /// Nil for a missing object; otherwise throws the reply's failure.
    private static func missingOrFailure(_ response: S3Response, _ operation: String) throws -> FileContent? {
        guard response.isMissingObject else { throw response.failure(operation) }
        return nil
    }
}
