/// The canonical form of a request that SigV4 hashes and signs: method, encoded path, sorted and encoded query,
/// sorted lower-case headers, the names of the signed headers, and the payload hash, one per line.
struct CanonicalRequest: Sendable, Hashable {
    var method: String
    /// The path as sent, already URI-encoded (S3 paths are not encoded twice).
    var path: String
    /// Query parameters, not encoded; a parameter without a value (`?lifecycle`) has the value "".
    var query: [String: String]
    /// Every header to sign; names in any case.
    var headers: [String: String]
    /// The hex SHA-256 of the body, or `UNSIGNED-PAYLOAD`.
    var payloadHash: String

    /// The query as `name=value` pairs joined by `&`, encoded and sorted by encoded name.
    var canonicalQuery: String {
        Self.canonicalQuery(query)
    }

    /// The lower-case header names, sorted and joined by `;`.
    var signedHeaders: String {
        normalizedHeaders.map(\.name).joined(separator: ";")
    }

    /// The full canonical request.
    var text: String {
        let headerLines = normalizedHeaders.map { "\($0.name):\($0.value)\n" }.joined()
        return [method, path.isEmpty ? "/" : path, canonicalQuery, headerLines, signedHeaders, payloadHash].joined(separator: "\n")
    }

    /// `query` in canonical form, which is also a valid query string for the URL.
    static func canonicalQuery(_ query: [String: String]) -> String {
        query.map { (URIEncoding.encode($0.key), URIEncoding.encode($0.value)) }
            .sorted { $0.0 == $1.0 ? $0.1 < $1.1 : $0.0 < $1.0 }
            .map { "\($0.0)=\($0.1)" }
            .joined(separator: "&")
    }

    /// Headers with lower-case names, sorted by name, values trimmed and inner runs of spaces folded into one.
    private var normalizedHeaders: [(name: String, value: String)] {
        headers.map { (name: $0.key.lowercased(), value: Self.normalizedValue($0.value)) }.sorted { $0.name < $1.name }
    }

    private static func normalizedValue(_ value: String) -> String {
        value.split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ")
    }
}
