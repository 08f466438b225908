import CirrusModel
import Hummingbird

/// `GET` and `HEAD /1.1/openapi.json`: the OpenAPI 3.1 description of the LeanCloud dialect, public like
/// `/1.1/date`. The bytes are `docs/openapi.json` as compiled into the server (``text``, which
/// `scripts/openapi-embed` writes and a test keeps equal to the file), served as they are.
enum OpenAPIDocument {
    static let path = "/1.1/openapi.json"
    static let allowedMethods = "GET, HEAD, OPTIONS"

    /// The document for a `GET` or `HEAD` of ``path``, a 405 for other methods but the CORS preflight, or `nil`
    /// for any other path.
    static func respond(to request: Request) -> Response? {
        guard request.uri.path == path, request.method != .options else { return nil }
        var headers: HTTPFields = [.contentType: "application/json; charset=utf-8", .accessControlAllowOrigin: "*"]
        guard request.method == .get || request.method == .head else {
            headers[.allow] = allowedMethods
            let error = APIError(.methodNotAllowed, "Method \(request.method.rawValue) is not allowed on /openapi.json.")
            let body = JSONWriter.bytes(Dialect.leancloud.wireError(for: error).body)
            return Response(status: .methodNotAllowed, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: body)))
        }
        headers[.cacheControl] = "no-cache"
        headers[.contentLength] = String(text.utf8.count)
        let body = request.method == .head ? ResponseBody() : ResponseBody(byteBuffer: ByteBuffer(string: text))
        return Response(status: .ok, headers: headers, body: body)
    }
}
