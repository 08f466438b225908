import CirrusStorage
import Foundation

/// The URL parts of a bucket and its objects under one configuration: scheme, `Host` header and encoded path.
struct S3Endpoint: Sendable, Hashable {
    let scheme: String
    /// The endpoint's host with its port when that is not the scheme's default (the `Host` header).
    let host: String
    /// The endpoint's own path, without a trailing `/` (usually "").
    let basePath: String
    let bucket: String
    let addressing: S3Configuration.Addressing
    let keyPrefix: String

    /// - Throws: ``FileStorageError/failed(_:)`` when the endpoint is not an `http` or `https` URL with a host, or
    ///   the bucket is empty.
    init(_ configuration: S3Configuration) throws(FileStorageError) {
        let url = configuration.endpoint
        guard let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https" else {
            throw .failed("S3: the endpoint must be an http or https URL, not \(url.absoluteString)")
        }
        guard let host = url.host, !host.isEmpty else { throw .failed("S3: the endpoint \(url.absoluteString) has no host") }
        guard !configuration.bucket.isEmpty else { throw .failed("S3: the bucket name is empty") }
        let name = host.contains(":") ? "[\(host)]" : host
        let defaultPort = scheme == "https" ? 443 : 80
        self.scheme = scheme
        self.host = url.port.map { $0 == defaultPort ? name : "\(name):\($0)" } ?? name
        basePath = url.path.hasSuffix("/") ? String(url.path.dropLast()) : url.path
        bucket = configuration.bucket
        addressing = configuration.addressing
        keyPrefix = configuration.keyPrefix
    }

    /// The full object name of `key` in the bucket: the key prefix, then the key.
    func objectName(_ key: String) -> String {
        keyPrefix + key
    }

    /// A request for the object of `key`, or for the bucket itself when `key` is nil.
    func request(_ method: String, key: String?) -> S3Request {
        let object = key.map { "/" + URIEncoding.encode(objectName($0), keepingSlashes: true) } ?? ""
        switch addressing {
        case .pathStyle:
            let bucketPath = basePath + "/" + URIEncoding.encode(bucket)
            return S3Request(method: method, scheme: scheme, host: host, path: bucketPath + object)
        case .virtualHost:
            return S3Request(method: method, scheme: scheme, host: URIEncoding.encode(bucket) + "." + host, path: basePath + (key == nil ? "/" : object))
        }
    }
}
