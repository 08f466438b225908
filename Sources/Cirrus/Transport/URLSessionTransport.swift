public import Foundation
#if canImport(FoundationNetworking)
public import FoundationNetworking
#endif

/// The default transport: `URLSession` (FoundationNetworking on Linux).
public final class URLSessionTransport: Transport {
    private let session: URLSession
    private let timeout: TimeInterval

    /// - Parameters:
    ///   - session: the session requests without progress go through.
    ///   - timeout: seconds a request may wait for the server.
    public init(session: URLSession = URLSession(configuration: .ephemeral), timeout: TimeInterval = 60) {
        self.session = session
        self.timeout = timeout
    }

    public func send(_ request: TransportRequest) async throws -> TransportResponse {
        let urlRequest = makeRequest(request)
        if request.progress != nil || request.downloadProgress != nil {
            return try await ProgressTransfer.send(urlRequest, body: request.body, upload: request.progress, download: request.downloadProgress)
        }
        let (data, response) = try await session.data(for: urlRequest)
        return Self.reply(response, data)
    }

    private func makeRequest(_ request: TransportRequest) -> URLRequest {
        var urlRequest = URLRequest(url: request.url, timeoutInterval: timeout)
        urlRequest.httpMethod = request.method
        for (name, value) in request.headers { urlRequest.setValue(value, forHTTPHeaderField: name) }
        if request.progress == nil { urlRequest.httpBody = request.body }
        return urlRequest
    }

    /// The status, headers and body of a URLSession reply.
    static func reply(_ response: URLResponse?, _ data: Data) -> TransportResponse {
        let http = response as? HTTPURLResponse
        var headers: [String: String] = [:]
        for (name, value) in http?.allHeaderFields ?? [:] {
            headers[String(describing: name)] = String(describing: value)
        }
        return TransportResponse(status: http?.statusCode ?? 0, headers: headers, body: data)
    }
}

/// One request through a session of its own whose delegate reports the bytes sent (uploads) and received
/// (downloads).
final class ProgressTransfer: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    private let upload: (@Sendable (Double) -> Void)?
    private let download: (@Sendable (Double) -> Void)?
    private let lock = NSLock()
    private var received = Data()
    private var expected: Int64 = -1
    private var continuation: CheckedContinuation<TransportResponse, any Error>?

    private init(upload: (@Sendable (Double) -> Void)?, download: (@Sendable (Double) -> Void)?) {
        self.upload = upload
        self.download = download
    }

    static func send(
        _ request: URLRequest, body: Data?, upload: (@Sendable (Double) -> Void)?, download: (@Sendable (Double) -> Void)?
    ) async throws -> TransportResponse {
        let transfer = ProgressTransfer(upload: upload, download: download)
        let session = URLSession(configuration: .ephemeral, delegate: transfer, delegateQueue: nil)
        defer { session.finishTasksAndInvalidate() }
        var plain = request
        if upload == nil { plain.httpBody = body }
        let task = upload == nil ? session.dataTask(with: plain) : session.uploadTask(with: request, from: body ?? Data())
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                transfer.lock.withLock { transfer.continuation = continuation }
                task.resume()
            }
        } onCancel: {
            task.cancel()
        }
    }

    func urlSession(
        _ session: URLSession, task: URLSessionTask, didSendBodyData bytesSent: Int64, totalBytesSent: Int64,
        totalBytesExpectedToSend: Int64
    ) {
        guard let upload, totalBytesExpectedToSend > 0 else { return }
        upload(min(1, Double(totalBytesSent) / Double(totalBytesExpectedToSend)))
    }

    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
    ) {
        lock.withLock { expected = response.expectedContentLength }
        completionHandler(.allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        let (count, expected) = lock.withLock { () -> (Int, Int64) in
            received.append(data)
            return (received.count, self.expected)
        }
        if let download, expected > 0 { download(min(1, Double(count) / Double(expected))) }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        let (continuation, data) = lock.withLock { () -> (CheckedContinuation<TransportResponse, any Error>?, Data) in
            defer { self.continuation = nil }
            return (self.continuation, received)
        }
        if let error {
            continuation?.resume(throwing: error)
        } else {
            continuation?.resume(returning: URLSessionTransport.reply(task.response, data))
        }
    }
}
