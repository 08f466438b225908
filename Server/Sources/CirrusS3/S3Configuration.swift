public import Foundation

/// Where and how an ``S3FileStorage`` reaches its bucket: AWS S3 or any S3-compatible store (MinIO, Ceph, R2, …).
///
/// ```swift
/// let configuration = S3Configuration(
///     endpoint: URL(string: "https://s3.eu-west-1.amazonaws.com")!, region: "eu-west-1", bucket: "cirrus-files",
///     accessKeyID: keyID, secretAccessKey: secret, addressing: .virtualHost, keyPrefix: "files/")
/// ```
public struct S3Configuration: Sendable, Hashable {
    /// How the bucket appears in request URLs.
    public enum Addressing: Sendable, Hashable {
        /// `https://endpoint/bucket/key`: works with any endpoint, an IP address or `localhost` too (MinIO, Ceph).
        case pathStyle
        /// `https://bucket.endpoint/key`: what AWS prefers; needs DNS for `bucket.endpoint`.
        case virtualHost
    }

    /// The service's base URL, `http` or `https`, with a port and a path if needed: `https://s3.amazonaws.com`,
    /// `http://127.0.0.1:9000`.
    public var endpoint: URL
    /// The region signatures are scoped to: `us-east-1`; many S3-compatible stores accept any (`auto` for R2).
    public var region: String
    public var bucket: String
    public var accessKeyID: String
    public var secretAccessKey: String
    /// The token of temporary credentials (STS), sent as `x-amz-security-token`.
    public var sessionToken: String?
    public var addressing: Addressing
    /// Put in front of every key, as given: `files/` stores key `a1.txt` as object `files/a1.txt`.
    public var keyPrefix: String
    /// How long one request may take, from sending it to the last byte of the reply.
    public var timeout: Duration
    /// When set, downloads of `/files/<key>` are redirected to a presigned GET URL of the object valid this long,
    /// so the bytes flow from the store to clients without passing through Cirrus; `nil` serves them through Cirrus.
    public var downloadRedirectLifetime: Duration?

    public init(
        endpoint: URL,
        region: String,
        bucket: String,
        accessKeyID: String,
        secretAccessKey: String,
        sessionToken: String? = nil,
        addressing: Addressing = .pathStyle,
        keyPrefix: String = "",
        timeout: Duration = .seconds(30),
        downloadRedirectLifetime: Duration? = nil
    ) {
        self.endpoint = endpoint
        self.region = region
        self.bucket = bucket
        self.accessKeyID = accessKeyID
        self.secretAccessKey = secretAccessKey
        self.sessionToken = sessionToken
        self.addressing = addressing
        self.keyPrefix = keyPrefix
        self.timeout = timeout
        self.downloadRedirectLifetime = downloadRedirectLifetime
    }
}

extension S3Configuration: CustomStringConvertible {
    /// The configuration without its secrets, for logs.
    public var description: String {
        "S3Configuration(endpoint: \(endpoint.absoluteString), region: \(region), bucket: \(bucket), accessKeyID: \(accessKeyID), "
            + "addressing: \(addressing), keyPrefix: \"\(keyPrefix)\", timeout: \(timeout))"
    }
}
