package import AsyncHTTPClient
import CirrusConcurrency
import CirrusModel
import CirrusStorage
import Foundation
package import Logging
import NIOCore
import NIOHTTP1

/// File contents as objects in a bucket of an S3-compatible store, one object per key (under the configured key
/// prefix), signed with AWS Signature Version 4.
///
/// An S3 PUT is atomic, so a reader sees the whole content or nothing. Requests go through one `HTTPClient`: by
/// default `HTTPClient.shared`, which is never shut down; a client handed over with `ownsClient: true` is shut down
/// by ``shutdown()``.
///
/// ```swift
/// let storage = try S3FileStorage(configuration: configuration)
/// try await storage.write(bytes, key: "a1.txt", mimeType: "text/plain")
/// let link = try storage.presignedURL(method: .get, key: "a1.txt", expiresIn: .seconds(600))
/// ```
package final class S3FileStorage: FileStorage {
    package let configuration: S3Configuration
    package var name: String { "s3" }

    let endpoint: S3Endpoint
    let signer: SignatureV4
    private let httpClient: HTTPClient
    private let ownsClient: Bool
    private let logger: Logger

    /// A storage of `configuration` that sends its requests with `httpClient`.
    /// - Parameters:
    ///   - ownsClient: whether ``shutdown()`` shuts `httpClient` down; leave it false for a client others use too.
    /// - Throws: ``FileStorageError/failed(_:)`` when the endpoint is not an `http` or `https` URL with a host, or
    ///   the bucket name is empty.
    package init(
        configuration: S3Configuration,
        httpClient: HTTPClient = .shared,
        ownsClient: Bool = false,
        logger: Logger = Logger(label: "cirrus.s3")
    ) throws {
        self.configuration = configuration
        endpoint = try S3Endpoint(configuration)
        signer = SignatureV4(
            accessKeyID: configuration.accessKeyID, secretAccessKey: configuration.secretAccessKey,
            sessionToken: configuration.sessionToken, region: configuration.region)
        self.httpClient = httpClient
        self.ownsClient = ownsClient && httpClient !== HTTPClient.shared
        self.logger = logger
    }

    /// Shuts down the HTTP client when this storage owns it; does nothing otherwise. Call it once, at the end.
    package func shutdown() async throws {
        guard ownsClient else { return }
        try await httpClient.shutdown()
    }

    package func write(_ content: [UInt8], key: String, mimeType: String) async throws {
        var request = try objectRequest("PUT", key: key)
        request.headers["content-type"] = mimeType
        // A conditional write (S3 since 2024, MinIO, R2): the bucket refuses it when the key exists (412), or while
        // another write of it is in flight (409), so a content is never replaced.
        request.headers["if-none-match"] = "*"
        request.body = content
        let response = try await send(request)
        if response.status == 412 || response.status == 409 { throw FileStorageError.alreadyExists(key) }
        guard response.isSuccess else { throw response.failure("PUT \(endpoint.objectName(key))") }
    }

    package func delete(key: String) async throws {
        let response = try await send(try objectRequest("DELETE", key: key))
        guard response.isSuccess || response.isMissingObject else { throw response.failure("DELETE \(endpoint.objectName(key))") }
    }

    /// A request for the object of `key`.
    /// - Throws: ``FileStorageError/invalidKey(_:)`` when `key` breaks ``FileKey`` rules.
    func objectRequest(_ method: String, key: String) throws(FileStorageError) -> S3Request {
        guard FileKey.isValid(key) else { throw .invalidKey(key) }
        return endpoint.request(method, key: key)
    }

    /// Signs and sends `request` and reads the whole reply, all within the configured timeout.
    /// - Throws: ``FileStorageError/failed(_:)`` when no complete reply arrives in time (connection refused,
    ///   timeout, TLS).
    func send(_ request: S3Request) async throws(FileStorageError) -> S3Response {
        do {
            return try await TimeLimit.run(within: configuration.timeout) { try await self.exchange(request) }
        } catch {
            throw .failed("S3 \(request.method) \(request.url) failed: \(error)")
        }
    }

    private func exchange(_ request: S3Request) async throws -> S3Response {
        let reply = try await httpClient.execute(request.signed(by: signer, at: Date()), timeout: timeout, logger: logger)
        let body = try await reply.body.collect(upTo: .max)
        let headers = Dictionary(reply.headers.map { ($0.name.lowercased(), $0.value) }) { first, _ in first }
        logger.debug("S3 request", metadata: ["method": "\(request.method)", "path": "\(request.path)", "status": "\(reply.status.code)"])
        return S3Response(status: Int(reply.status.code), headers: headers, body: Array(buffer: body))
    }

    private var timeout: TimeAmount {
        let (seconds, attoseconds) = configuration.timeout.components
        return .nanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
    }
}
