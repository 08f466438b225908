import CirrusModel
import CirrusTesting
import Foundation
import Testing

/// One way a client addresses the server: a dialect and the path prefix its SDKs use.
struct Endpoint: Sendable, CustomTestStringConvertible {
    let dialect: Dialect
    let prefix: String

    static let leancloud = Endpoint(dialect: .leancloud, prefix: "/1.1")
    static let parse = Endpoint(dialect: .parse, prefix: "/1")
    static let parseMounted = Endpoint(dialect: .parse, prefix: "/parse")
    static let bmob = Endpoint(dialect: .bmob, prefix: "/1")

    /// Every dialect, Parse under both of its prefixes.
    static let all: [Endpoint] = [.leancloud, .parse, .parseMounted, .bmob]
    /// One endpoint per dialect.
    static let dialects: [Endpoint] = [.leancloud, .parse, .bmob]

    var testDescription: String { "\(dialect.rawValue) \(prefix)" }

    /// One dialect's endpoint with every case of `cases`: the arguments of a matrix test run in each dialect.
    static func matrix<Case: CaseIterable>(_ cases: Case.Type) -> [(Endpoint, Case)] {
        dialects.flatMap { endpoint in cases.allCases.map { (endpoint, $0) } }
    }

    /// Whether dates of this dialect are Bmob's `YYYY-MM-DD HH:MM:SS`.
    var isBmob: Bool { dialect == .bmob }
}

extension TestClient {
    /// Sends a JSON request to `path` below the endpoint's prefix.
    func request(
        _ endpoint: Endpoint, _ method: HTTPRequest.Method, _ path: String, json: JSON? = nil, auth: Auth = .appKey,
        headers: [String: String] = [:]
    ) async throws -> TestReply {
        try await send(endpoint.dialect, method, endpoint.prefix + path, json: json, auth: auth, headers: headers)
    }

    /// Sends a raw text body to `path` below the endpoint's prefix.
    func request(
        _ endpoint: Endpoint, _ method: HTTPRequest.Method, _ path: String, body: String?, auth: Auth = .appKey,
        headers: [String: String] = [:]
    ) async throws -> TestReply {
        try await send(endpoint.dialect, method, endpoint.prefix + path, body: body, auth: auth, headers: headers)
    }

    /// Creates an object and returns its objectId, failing the test unless the server answers 201.
    func create(_ endpoint: Endpoint, _ className: String, _ body: JSON, sourceLocation: SourceLocation = #_sourceLocation) async throws -> String {
        let reply = try await request(endpoint, .post, "/classes/\(className)", json: body)
        #expect(reply.status == 201, "create failed: \(reply.bodyText)", sourceLocation: sourceLocation)
        return try #require(reply.json["objectId"]?.stringValue, sourceLocation: sourceLocation)
    }

    /// Fetches an object as JSON.
    func fetch(_ endpoint: Endpoint, _ className: String, _ objectId: String, query: String = "") async throws -> TestReply {
        try await request(endpoint, .get, "/classes/\(className)/\(objectId)" + (query.isEmpty ? "" : "?" + query))
    }
}

/// Helpers for URL query strings in tests.
enum URLQuery {
    /// Percent-encodes a query parameter value (JSON included).
    static func encode(_ text: String) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? text
    }

    /// `where=<encoded JSON>`.
    static func whereClause(_ condition: JSON) -> String {
        "where=" + encode(JSONWriter.string(condition))
    }
}

/// Shapes of identifiers and dates per dialect.
enum WireFormat {
    /// Whether `text` matches the regular expression `pattern` entirely.
    static func matches(_ text: String?, _ pattern: String) -> Bool {
        guard let text else { return false }
        return text.range(of: "^" + pattern + "$", options: .regularExpression) != nil
    }

    static let hex24 = "[0-9a-f]{24}"
    static let alphanumeric10 = "[0-9A-Za-z]{10}"
    static let iso = "[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}\\.[0-9]{3}Z"
    static let spaced = "[0-9]{4}-[0-9]{2}-[0-9]{2} [0-9]{2}:[0-9]{2}:[0-9]{2}"

    /// The objectId pattern of a dialect.
    static func objectId(_ dialect: Dialect) -> String {
        dialect == .leancloud ? hex24 : alphanumeric10
    }

    /// The createdAt/updatedAt pattern of a dialect.
    static func date(_ dialect: Dialect) -> String {
        dialect == .bmob ? spaced : iso
    }

    /// An ISO date as Bmob writes it: Beijing time without a zone.
    static func beijing(_ iso: String) -> String? {
        Timestamp(parsing: iso).map { $0.format(offsetMinutes: 480, style: .spaced) }
    }
}

extension TestReply {
    /// Whether the reply refuses: an error status, or for a batch (which answers 200 with each item's own result) an
    /// error as its first item.
    func isRefusal(batch: Bool) -> Bool {
        guard batch, status < 400 else { return status >= 400 }
        return json.arrayValue?.first?["error"] != nil
    }
}
