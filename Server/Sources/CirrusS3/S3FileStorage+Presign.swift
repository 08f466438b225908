import CirrusStorage
package import Foundation

extension S3FileStorage {
    /// The methods a presigned URL can be made for.
    package enum PresignedMethod: String, Sendable, Hashable {
        /// Download the object.
        case get = "GET"
        /// Upload the object (the body as it is, any `Content-Type`).
        case put = "PUT"
    }

    /// The longest validity S3 accepts for a presigned URL: seven days.
    package static let maximumPresignedExpiry: Duration = .seconds(604_800)

    /// A URL that lets whoever holds it GET or PUT the object of `key` without credentials until `expiresIn` has
    /// passed (query-string SigV4 with `X-Amz-Expires`; only `host` is signed).
    /// - Throws: ``FileStorageError/invalidKey(_:)`` for a bad key; ``FileStorageError/failed(_:)`` when `expiresIn`
    ///   is not from one second to seven days.
    package func presignedURL(method: PresignedMethod, key: String, expiresIn: Duration) throws -> URL {
        try presignedURL(method: method, key: key, expiresIn: expiresIn, at: Date())
    }

    /// A presigned GET URL when the configuration redirects downloads (``S3Configuration/downloadRedirectLifetime``).
    package func downloadURL(key: String) throws -> String? {
        guard let lifetime = configuration.downloadRedirectLifetime else { return nil }
        return try presignedURL(method: .get, key: key, expiresIn: lifetime).absoluteString
    }

    /// ``presignedURL(method:key:expiresIn:)`` signed at `date`.
    func presignedURL(method: PresignedMethod, key: String, expiresIn: Duration, at date: Date) throws -> URL {
        let request = try objectRequest(method.rawValue, key: key)
        guard expiresIn >= .seconds(1), expiresIn <= Self.maximumPresignedExpiry else {
            throw FileStorageError.failed("S3: a presigned URL must expire in 1 second to 7 days, not \(expiresIn)")
        }
        let text = request.presignedURL(by: signer, expires: Int(expiresIn.components.seconds), at: date)
        guard let url = URL(string: text) else { throw FileStorageError.failed("S3: cannot form a URL from \(text)") }
        return url
    }
}
