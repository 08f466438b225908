/// How files are stored and reached.
public struct FileSettings: Sendable {
    /// What file URLs start with (`http://127.0.0.1:3000`): URLs are built on each read, so changing it needs no
    /// rewrite of stored files.
    public var publicURL: String
    /// The largest file accepted, in bytes.
    public var maximumSize: Int
    /// How long an upload URL handed out by `fileTokens` stays valid, in milliseconds.
    public var uploadLifetime: Int64
    /// The key that signs upload URLs; derived from the master key by the server.
    public var signingKey: [UInt8]
    /// How many uploads one client may start (the master key is not limited).
    public var uploadRate: RateLimit

    public init(
        publicURL: String, maximumSize: Int = 20 * 1024 * 1024, uploadLifetime: Int64 = 3_600_000, signingKey: [UInt8],
        uploadRate: RateLimit = .uploadDefault
    ) {
        self.publicURL = publicURL.hasSuffix("/") ? String(publicURL.dropLast()) : publicURL
        self.maximumSize = maximumSize
        self.uploadLifetime = uploadLifetime
        self.signingKey = signingKey
        self.uploadRate = uploadRate
    }

    /// The download URL of a stored content.
    public func url(forKey key: String) -> String {
        publicURL + "/files/" + key
    }
}
