import CirrusModel
import Hummingbird
import HTTPTypes
import NIOCore

/// The RTM router the LeanCloud SDKs ask where the realtime socket is: `GET /v1/route?appId=…` (unversioned, on the
/// API host) answers `{server, secondary, ttl}`, the socket's URL twice (the JavaScript SDK tries both).
struct RTMRoute: Sendable {
    static let path = "/v1/route"
    let socketURL: String

    func respond(to request: Request) -> Response? {
        guard request.uri.path == Self.path, request.method == .get || request.method == .options else { return nil }
        var headers: HTTPFields = [
            .contentType: "application/json; charset=utf-8", .accessControlAllowOrigin: "*", .cacheControl: "no-cache",
        ]
        if request.method == .options {
            headers[.accessControlAllowMethods] = "GET, OPTIONS"
            headers[.accessControlAllowHeaders] = request.headers[.accessControlRequestHeaders] ?? "*"
            return Response(status: .noContent, headers: headers)
        }
        let body: JSON = ["server": .string(socketURL), "secondary": .string(socketURL), "ttl": 3600]
        return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: JSONWriter.bytes(body))))
    }
}
