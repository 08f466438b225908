import CirrusServices
import CirrusStorage
import Hummingbird

/// `GET` and `HEAD /files/<key>`: the content of an upload, with its type, a strong ETag (contents never change),
/// long caching and single `Range` requests.
///
/// Contents are the users', served from the API's origin unless `--file-url` names another: every reply carries
/// `X-Content-Type-Options: nosniff` and a sandboxing `Content-Security-Policy`, and types a browser would run
/// (HTML, SVG, XML, scripts, anything not known to be passive) come as `Content-Disposition: attachment`, so an
/// uploaded page cannot act as the API's origin. Images, audio, video, PDF and plain text stay displayable inline.
struct FileDownloads: Sendable {
    let files: FileService

    static let prefix = "/files/"
    /// No script, plugin, form or same-origin rights; inline styles only, which browsers' image and media viewers use.
    static let contentSecurityPolicy = "default-src 'none'; style-src 'unsafe-inline'; sandbox"

    func respond(to request: Request) async -> Response? {
        let path = request.uri.path
        guard path.hasPrefix(Self.prefix), request.method == .get || request.method == .head else { return nil }
        let key = String(path.dropFirst(Self.prefix.count))
        let etag = "\"\(key)\""
        var headers: HTTPFields = [
            .accessControlAllowOrigin: "*", .acceptRanges: "bytes", .eTag: etag, .cacheControl: "public, max-age=31536000, immutable",
            .xContentTypeOptions: "nosniff",
        ]
        if request.headers[.ifNoneMatch] == etag { return Response(status: .notModified, headers: headers) }
        let range = request.headers[.range].flatMap(ByteRange.init(header:))
        do {
            if let url = try await files.downloadRedirect(key: key) {
                // The presigned URL expires: the redirect may be cached for a short while only.
                return Response(status: .found, headers: [.location: url, .cacheControl: "private, max-age=60", .accessControlAllowOrigin: "*"])
            }
            guard let download = try await files.download(key: key, range: range?.readBounds) else {
                return Response(status: .notFound, headers: [.contentType: "text/plain"], body: .init(byteBuffer: ByteBuffer(string: "Not found\n")))
            }
            Self.describe(download, in: &headers)
            return Self.reply(download.content, range: range, method: request.method, headers: headers)
        } catch {
            return Response(status: .internalServerError, headers: [.contentType: "text/plain"], body: .init(byteBuffer: ByteBuffer(string: "Internal server error\n")))
        }
    }

    /// The type, the sandbox and, for types a browser would run, the attachment disposition with the file's name.
    static func describe(_ download: FileService.Download, in headers: inout HTTPFields) {
        headers[.contentType] = download.mimeType
        if download.mimeType != "application/pdf" {
            // Chrome refuses to show PDFs in a sandboxed document; PDF viewers run no script with the page's origin.
            headers[.contentSecurityPolicy] = contentSecurityPolicy
        }
        if !download.isInline { headers[.contentDisposition] = ContentDisposition.attachment(name: download.name) }
    }

    /// 200 with the whole content, 206 with the selected bytes, or 416 when the range selects none.
    static func reply(_ stored: FileContent, range: ByteRange?, method: HTTPRequest.Method, headers: HTTPFields) -> Response {
        var headers = headers
        var status = HTTPResponse.Status.ok
        var bytes = stored.bytes[...]
        if let range {
            switch range.selection(size: stored.totalSize) {
            case .whole:
                break
            case .unsatisfiable:
                headers[.contentRange] = "bytes */\(stored.totalSize)"
                return Response(status: .rangeNotSatisfiable, headers: headers)
            case .part(let first, let last):
                // The storage read from `stored.offset`; both ends lie within the content, so nothing overflows.
                let start = first - stored.offset
                let end = min(last - stored.offset + 1, stored.bytes.count)
                guard start >= 0, start < end else {
                    headers[.contentRange] = "bytes */\(stored.totalSize)"
                    return Response(status: .rangeNotSatisfiable, headers: headers)
                }
                bytes = stored.bytes[start..<end]
                status = .partialContent
                headers[.contentRange] = "bytes \(first)-\(first + bytes.count - 1)/\(stored.totalSize)"
            }
        }
        headers[.contentLength] = String(bytes.count)
        let body = method == .head ? ResponseBody() : ResponseBody(byteBuffer: ByteBuffer(bytes: bytes))
        return Response(status: status, headers: headers, body: body)
    }
}
