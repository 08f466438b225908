import CirrusModel
import HTTPTypes
import Hummingbird

/// `GET /metrics`: ``ServerMetrics`` in Prometheus's text format, to a scrape carrying `Authorization: Bearer <token>`
/// (`--metrics-token`); anyone else gets 401 and nothing of it.
struct MetricsEndpoint {
    static let path = "/metrics"
    let metrics: ServerMetrics

    /// The reply to `request` if it asks for the metrics.
    func respond(to request: Request) -> Response? {
        guard request.uri.path == Self.path else { return nil }
        guard request.method == .get || request.method == .head else {
            return Response(status: .methodNotAllowed, headers: [.allow: "GET, HEAD"])
        }
        let given = request.headers[.authorization].flatMap { value -> String? in
            let parts = value.split(separator: " ", maxSplits: 1)
            return parts.count == 2 && parts[0].lowercased() == "bearer" ? String(parts[1]) : nil
        }
        guard let given, Authenticator.equal(given, metrics.token) else {
            return Response(status: .unauthorized, headers: [.wwwAuthenticate: "Bearer realm=\"cirrus metrics\""])
        }
        let text = request.method == .head ? [] : metrics.text()
        return Response(
            status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8", .cacheControl: "no-store"],
            body: .init(byteBuffer: ByteBuffer(bytes: text))
        )
    }
}
