import Foundation

/// AWS Signature Version 4 (`AWS4-HMAC-SHA256`) for one set of credentials, region and service: either headers
/// (`Authorization`, `x-amz-date`, `x-amz-content-sha256`) or a presigned query (`X-Amz-Signature`, …).
struct SignatureV4: Sendable {
    static let algorithm = "AWS4-HMAC-SHA256"
    /// The SHA-256 of no bytes, the payload hash of a request without a body.
    static let emptyPayloadHash = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
    /// The payload hash of presigned URLs, whose body is not known when they are signed.
    static let unsignedPayload = "UNSIGNED-PAYLOAD"

    var accessKeyID: String
    var secretAccessKey: String
    var sessionToken: String?
    var region: String
    var service: String = "s3"

    /// `20130524/us-east-1/s3/aws4_request`.
    func scope(_ date: SigningDate) -> String {
        "\(date.day)/\(region)/\(service)/aws4_request"
    }

    /// The algorithm, the time, the scope and the hash of the canonical request, one per line.
    func stringToSign(_ request: CanonicalRequest, date: SigningDate) -> String {
        [Self.algorithm, date.timestamp, scope(date), Hex.sha256(request.text.utf8)].joined(separator: "\n")
    }

    /// The hex HMAC of `stringToSign` under the key derived from the secret, the day, the region and the service.
    func signature(of stringToSign: String, date: SigningDate) -> String {
        var key = Hex.hmac(key: Array("AWS4\(secretAccessKey)".utf8), date.day)
        for part in [region, service, "aws4_request"] {
            key = Hex.hmac(key: key, part)
        }
        return Hex.string(Hex.hmac(key: key, stringToSign))
    }

    /// `headers` (which must hold `host`) with `x-amz-date`, `x-amz-content-sha256`, `x-amz-security-token` when
    /// there is a session token, and the `authorization` that signs them all.
    func signedHeaders(
        method: String, path: String, query: [String: String], headers: [String: String], payloadHash: String, date: Date
    ) -> [String: String] {
        let date = SigningDate(date)
        var headers = headers
        headers["x-amz-date"] = date.timestamp
        headers["x-amz-content-sha256"] = payloadHash
        if let sessionToken { headers["x-amz-security-token"] = sessionToken }
        let request = CanonicalRequest(method: method, path: path, query: query, headers: headers, payloadHash: payloadHash)
        headers["authorization"] = authorization(request, date: date)
        return headers
    }

    /// The `Authorization` header value for `request`.
    func authorization(_ request: CanonicalRequest, date: SigningDate) -> String {
        let signature = signature(of: stringToSign(request, date: date), date: date)
        return "\(Self.algorithm) Credential=\(accessKeyID)/\(scope(date)),SignedHeaders=\(request.signedHeaders),Signature=\(signature)"
    }

    /// The query string of a URL valid for `expires` seconds from `date`: `query` and the `X-Amz-*` parameters,
    /// sorted, then `X-Amz-Signature` last. Only `host` is signed.
    func presignedQuery(
        method: String, path: String, host: String, query: [String: String] = [:], expires: Int, date: Date
    ) -> String {
        let date = SigningDate(date)
        var query = query
        query["X-Amz-Algorithm"] = Self.algorithm
        query["X-Amz-Credential"] = "\(accessKeyID)/\(scope(date))"
        query["X-Amz-Date"] = date.timestamp
        query["X-Amz-Expires"] = String(expires)
        query["X-Amz-SignedHeaders"] = "host"
        if let sessionToken { query["X-Amz-Security-Token"] = sessionToken }
        let request = CanonicalRequest(method: method, path: path, query: query, headers: ["host": host], payloadHash: Self.unsignedPayload)
        let signature = signature(of: stringToSign(request, date: date), date: date)
        return request.canonicalQuery + "&X-Amz-Signature=" + signature
    }
}
