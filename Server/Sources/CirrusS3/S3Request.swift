import AsyncHTTPClient
import Foundation
import NIOHTTP1

/// One request to an S3-compatible service before it is signed.
struct S3Request: Sendable, Hashable {
    var method: String
    var scheme: String
    /// The `Host` header: the host, with the port when it is not the default one.
    var host: String
    /// The URI-encoded path.
    var path: String
    /// Query parameters, not encoded.
    var query: [String: String] = [:]
    /// Headers other than `host` and the signature's own.
    var headers: [String: String] = [:]
    var body: [UInt8] = []

    /// The URL, with the query in canonical order.
    var url: String {
        let query = CanonicalRequest.canonicalQuery(query)
        return "\(scheme)://\(host)\(path.isEmpty ? "/" : path)" + (query.isEmpty ? "" : "?" + query)
    }

    /// The request for `HTTPClient`, signed by `signer` at `date` over its headers, `host` and the SHA-256 of its body.
    func signed(by signer: SignatureV4, at date: Date) -> HTTPClientRequest {
        var headers = headers
        headers["host"] = host
        let payloadHash = body.isEmpty ? SignatureV4.emptyPayloadHash : Hex.sha256(body)
        let signedHeaders = signer.signedHeaders(method: method, path: path, query: query, headers: headers, payloadHash: payloadHash, date: date)
        var request = HTTPClientRequest(url: url)
        request.method = HTTPMethod(rawValue: method)
        for (name, value) in signedHeaders.sorted(by: { $0.key < $1.key }) {
            request.headers.add(name: name, value: value)
        }
        if !body.isEmpty || method == "PUT" || method == "POST" {
            request.body = .bytes(body)
        }
        return request
    }

    /// A URL for anyone holding it, valid for `expires` seconds from `date`.
    func presignedURL(by signer: SignatureV4, expires: Int, at date: Date) -> String {
        let query = signer.presignedQuery(method: method, path: path, host: host, query: query, expires: expires, date: date)
        return "\(scheme)://\(host)\(path.isEmpty ? "/" : path)?\(query)"
    }
}
