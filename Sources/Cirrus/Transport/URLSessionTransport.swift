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
        if let progress = request.progress {
            return try await ProgressUpload.send(urlRequest, body: request.body ?? Data(), progress: progress)
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

/// One upload through a session of its own whose delegate reports the bytes sent.
final class ProgressUpload: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    private let progress: @Sendable (Double) -> Void
    private let lock = NSLock()
    private var received = Data()
    private var continuation: CheckedContinuation<TransportResponse, any Error>?

    private init(progress: @escaping @Sendable (Double) -> Void) {
        self.progress = progress
    }

    static func send(_ request: URLRequest, body: Data, progress: @escaping @Sendable (Double) -> Void) async throws -> TransportResponse {
        let upload = ProgressUpload(progress: progress)
        let session = URLSession(configuration: .ephemeral, delegate: upload, delegateQueue: nil)
        defer { session.finishTasksAndInvalidate() }
        let task = session.uploadTask(with: request, from: body)
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                upload.lock.withLock { upload.continuation = continuation }
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
        guard totalBytesExpectedToSend > 0 else { return }
        progress(min(1, Double(totalBytesSent) / Double(totalBytesExpectedToSend)))
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        lock.withLock { received.append(data) }
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
