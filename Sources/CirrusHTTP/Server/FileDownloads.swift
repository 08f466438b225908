import CirrusServices
import CirrusStorage
import Hummingbird

/// `GET` and `HEAD /files/<key>`: the content of an upload, with its type, a strong ETag (contents never change),
/// long caching and single `Range` requests.
struct FileDownloads: Sendable {
    let files: FileService

    static let prefix = "/files/"

    func respond(to request: Request) async -> Response? {
        let path = request.uri.path
        guard path.hasPrefix(Self.prefix), request.method == .get || request.method == .head else { return nil }
        let key = String(path.dropFirst(Self.prefix.count))
        let etag = "\"\(key)\""
        var headers: HTTPFields = [.accessControlAllowOrigin: "*", .acceptRanges: "bytes", .eTag: etag, .cacheControl: "public, max-age=31536000, immutable"]
        if request.headers[.ifNoneMatch] == etag { return Response(status: .notModified, headers: headers) }
        let range = request.headers[.range].flatMap(ByteRange.init(header:))
        do {
            if let url = try await files.downloadRedirect(key: key) {
                // The presigned URL expires: the redirect may be cached for a short while only.
                return Response(status: .found, headers: [.location: url, .cacheControl: "private, max-age=60", .accessControlAllowOrigin: "*"])
            }
            guard let (stored, mimeType) = try await files.content(key: key, range: range?.bounds) else {
                return Response(status: .notFound, headers: [.contentType: "text/plain"], body: .init(byteBuffer: ByteBuffer(string: "Not found\n")))
            }
            headers[.contentType] = mimeType
            let content = range?.suffix.map { stored.suffix($0) } ?? stored
            if let range, !range.isSatisfiable(size: content.totalSize) {
                headers[.contentRange] = "bytes */\(content.totalSize)"
                return Response(status: .rangeNotSatisfiable, headers: headers)
            }
            headers[.contentLength] = String(content.bytes.count)
            var status = HTTPResponse.Status.ok
            if range != nil {
                status = .partialContent
                headers[.contentRange] = "bytes \(content.offset)-\(content.offset + content.bytes.count - 1)/\(content.totalSize)"
            }
            let body = request.method == .head ? ResponseBody() : ResponseBody(byteBuffer: ByteBuffer(bytes: content.bytes))
            return Response(status: status, headers: headers, body: body)
        } catch {
            return Response(status: .internalServerError, headers: [.contentType: "text/plain"], body: .init(byteBuffer: ByteBuffer(string: "Internal server error\n")))
        }
    }
}
