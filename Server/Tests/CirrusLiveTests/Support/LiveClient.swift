import CirrusTesting
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A plain HTTP client for a running server: LeanCloud headers with the app key, JSON bodies.
struct LiveClient: Sendable {
    let baseURL: String
    let keys: AppKeys
    private let session: URLSession

    init(host: String, port: Int, keys: AppKeys) {
        baseURL = "http://\(host):\(port)"
        self.keys = keys
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = 60
        session = URLSession(configuration: configuration)
    }

    /// The headers that authenticate with the app key.
    var appKeyHeaders: [String: String] { ["X-LC-Id": keys.appId, "X-LC-Key": keys.appKey] }

    /// Sends a request; `path` starts with the version prefix (`/1.1/classes/Post`). `headers` replace the
    /// app-key headers when given.
    /// - Throws: when no HTTP reply arrives (for example, the connection is refused).
    func send(_ method: String, _ path: String, json: JSON? = nil, headers: [String: String]? = nil) async throws -> LiveReply {
        guard let url = URL(string: baseURL + path) else { throw LiveTestError(description: "Bad path \(path)") }
        var request = URLRequest(url: url)
        request.httpMethod = method
        for (name, value) in headers ?? appKeyHeaders { request.setValue(value, forHTTPHeaderField: name) }
        if let json {
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
            request.httpBody = Data(JSONWriter.bytes(json))
        }
        let (data, response) = try await session.data(for: request)
        guard let http = response as? HTTPURLResponse else { throw LiveTestError(description: "Not an HTTP reply from \(url)") }
        return LiveReply(status: http.statusCode, bodyText: String(decoding: data, as: UTF8.self))
    }

    /// Closes the session's connections.
    func invalidate() {
        session.invalidateAndCancel()
    }
}

/// A reply: the status and the body, parsed on demand.
struct LiveReply: Sendable {
    let status: Int
    let bodyText: String

    /// The body as JSON; `null` when it does not parse.
    var json: JSON { (try? JSONParser.parse(bodyText)) ?? .null }

    /// The `code` of an error body.
    var code: Int64? { json["code"]?.intValue }
}
