/// How files are stored and reached.
package struct FileSettings: Sendable {
    /// The API's public URL (`http://127.0.0.1:3000`), which upload URLs start with.
    package var publicURL: String
    /// What file URLs start with, before `/files/<key>`: the API's ``publicURL``, or another origin (a domain of its
    /// own) that keeps uploaded content away from the API's. URLs are built on each read, so changing it needs no
    /// rewrite of stored files.
    package var contentURL: String
    /// The largest file accepted, in bytes.
    package var maximumSize: Int
    /// How long an upload URL handed out by `fileTokens` stays valid, in milliseconds.
    package var uploadLifetime: Int64
    /// The key that signs upload URLs; derived from the master key by the server.
    package var signingKey: [UInt8]
    /// How many uploads one client may start (the master key is not limited).
    package var uploadRate: RateLimit

    package init(
        publicURL: String, contentURL: String? = nil, maximumSize: Int = 20 * 1024 * 1024, uploadLifetime: Int64 = 3_600_000, signingKey: [UInt8],
        uploadRate: RateLimit = .uploadDefault
    ) {
        self.publicURL = publicURL.hasSuffix("/") ? String(publicURL.dropLast()) : publicURL
        let content = contentURL ?? publicURL
        self.contentURL = content.hasSuffix("/") ? String(content.dropLast()) : content
        self.maximumSize = maximumSize
        self.uploadLifetime = uploadLifetime
        self.signingKey = signingKey
        self.uploadRate = uploadRate
    }

    /// What the download URLs of stored contents start with: `<content URL>/files`.
    package var filesBase: String { contentURL + "/files" }

    /// The download URL of a stored content.
    package func url(forKey key: String) -> String {
        filesBase + "/" + key
    }
}
