public import Foundation

/// What carries the SDK's HTTP requests. ``URLSessionTransport`` is the default; tests may give their own.
public protocol Transport: Sendable {
    /// Sends `request` and returns the reply, whatever its status.
    /// - Throws: when no reply arrived (connection refused, timeout, cancellation).
    func send(_ request: TransportRequest) async throws -> TransportResponse
}

/// An HTTP request as the SDK builds it.
public struct TransportRequest: Sendable {
    public var method: String
    public var url: URL
    public var headers: [String: String]
    public var body: Data?
    /// Called with the fraction of the body sent so far (0…1), for uploads.
    public var progress: (@Sendable (Double) -> Void)?
    /// Called with the fraction of the reply's body received so far (0…1, when the reply gives its length), for
    /// downloads.
    public var downloadProgress: (@Sendable (Double) -> Void)?

    public init(
        method: String, url: URL, headers: [String: String] = [:], body: Data? = nil, progress: (@Sendable (Double) -> Void)? = nil,
        downloadProgress: (@Sendable (Double) -> Void)? = nil
    ) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
        self.progress = progress
        self.downloadProgress = downloadProgress
    }
}

/// An HTTP reply.
public struct TransportResponse: Sendable {
    public var status: Int
    /// Header names as the server sent them.
    public var headers: [String: String]
    public var body: Data

    public init(status: Int, headers: [String: String] = [:], body: Data = Data()) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// The value of header `name`, compared without case.
    public func header(_ name: String) -> String? {
        headers.first { $0.key.caseInsensitiveCompare(name) == .orderedSame }?.value
    }
}
