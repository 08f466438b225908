@testable import Cirrus
import CirrusModel
import Foundation

/// An in-memory transport for unit tests: records every request and answers with the replies it was given, in
/// order (the last one again when they run out).
final class RecordingTransport: Transport, @unchecked Sendable {
    private let lock = NSLock()
    private var replies: [TransportResponse]
    private var recorded: [TransportRequest] = []

    init(_ replies: [TransportResponse] = [TransportResponse(status: 200, body: Data("{}".utf8))]) {
        self.replies = replies
    }

    /// A transport answering each request with one of these JSON bodies and status 200.
    convenience init(json: [String]) {
        self.init(json.map { TransportResponse(status: 200, body: Data($0.utf8)) })
    }

    func send(_ request: TransportRequest) async throws -> TransportResponse {
        lock.withLock {
            recorded.append(request)
            return replies.count > 1 ? replies.removeFirst() : replies[0]
        }
    }

    /// The requests sent so far.
    var requests: [TransportRequest] { lock.withLock { recorded } }
}

extension TransportRequest {
    /// The body parsed as JSON (`null` when there is none).
    var json: JSON {
        guard let body else { return .null }
        return (try? JSONParser.parse(body)) ?? .null
    }

    /// The path of the URL.
    var path: String { url.path }

    /// The query parameters, decoded.
    var query: [String: String] {
        var parameters: [String: String] = [:]
        for item in URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems ?? [] { parameters[item.name] = item.value }
        return parameters
    }

    /// A query parameter parsed as JSON.
    func queryJSON(_ name: String) -> JSON? {
        query[name].flatMap { try? JSONParser.parse($0) }
    }
}

/// An app on a fake server whose requests go to `transport`.
func makeApplication(_ transport: RecordingTransport) throws -> LCApplication {
    try LCApplication(
        id: "test-app-id", key: "test-app-key", serverURL: "https://api.example.com",
        configuration: .init(transport: transport, currentUserStorage: .none)
    )
}

/// Parses JSON text written in a test.
func json(_ text: String) throws -> JSON {
    try JSONParser.parse(text)
}
