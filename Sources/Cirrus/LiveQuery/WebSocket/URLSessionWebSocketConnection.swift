import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// URLSession's WebSocket task as a ``WebSocketConnection``: for every URL on Apple platforms, and for `wss://` on
/// Linux, where swift-corelibs-foundation's task works only with a libcurl built with WebSocket support (without it
/// the handshake fails with "WebSockets not supported by libcurl"). URLSession answers pings itself.
final class URLSessionWebSocketConnection: WebSocketConnection {
    let subprotocol: String?
    private let task: URLSessionWebSocketTask
    private let session: URLSession

    private init(task: URLSessionWebSocketTask, session: URLSession, subprotocol: String?) {
        self.task = task
        self.session = session
        self.subprotocol = subprotocol
    }

    deinit {
        task.cancel(with: .goingAway, reason: nil)
        session.finishTasksAndInvalidate()
    }

    /// Opens a connection to `url` and waits until the server accepted the upgrade.
    /// - Throws: ``WebSocketError/handshakeFailed(_:)`` when the task failed before it opened,
    ///   ``WebSocketError/timedOut`` after `timeout` seconds; `CancellationError` when the task is cancelled.
    static func connect(to url: URL, protocols: [String], headers: [String: String], timeout: TimeInterval) async throws -> URLSessionWebSocketConnection {
        var request = URLRequest(url: url, timeoutInterval: timeout)
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        if !protocols.isEmpty { request.setValue(protocols.joined(separator: ", "), forHTTPHeaderField: "Sec-WebSocket-Protocol") }
        let opening = WebSocketOpening<String?>()
        let session = URLSession(configuration: .ephemeral, delegate: OpeningDelegate(opening: opening), delegateQueue: nil)
        let task = session.webSocketTask(with: request)
        do {
            let chosen = try await opening.value(timeout: timeout) { task.resume() }
            return URLSessionWebSocketConnection(task: task, session: session, subprotocol: chosen)
        } catch {
            task.cancel()
            session.invalidateAndCancel()
            throw error
        }
    }

    func send(_ message: WebSocketMessage) async throws {
        do {
            switch message {
            case .text(let text): try await task.send(.string(text))
            case .binary(let data): try await task.send(.data(data))
            }
        } catch {
            throw closedError(error)
        }
    }

    func receive() async throws -> WebSocketMessage {
        let message: URLSessionWebSocketTask.Message
        do {
            message = try await task.receive()
        } catch {
            throw closedError(error)
        }
        switch message {
        case .string(let text): return .text(text)
        case .data(let data): return .binary(data)
        @unknown default: throw WebSocketError.closed(code: nil, reason: "a message of an unknown kind")
        }
    }

    func close(code: UInt16, reason: String) {
        let closeCode = URLSessionWebSocketTask.CloseCode(rawValue: Int(code)) ?? .normalClosure
        task.cancel(with: closeCode, reason: Data(WebSocketFrame.close(code: code, reason: reason).payload.dropFirst(2)))
        session.finishTasksAndInvalidate()
    }

    /// A failed send or receive as ``WebSocketError/closed(code:reason:)``: the task's close code and reason when it
    /// has them, else the error's description.
    private func closedError(_ error: any Error) -> WebSocketError {
        let code = task.closeCode == .invalid ? nil : UInt16(exactly: task.closeCode.rawValue)
        let reason = task.closeReason.map { String(decoding: $0, as: UTF8.self) } ?? error.localizedDescription
        return .closed(code: code, reason: reason)
    }
}

/// Decides the opening of a task: its subprotocol once open, or why it failed first.
private final class OpeningDelegate: NSObject, URLSessionWebSocketDelegate, Sendable {
    let opening: WebSocketOpening<String?>

    init(opening: WebSocketOpening<String?>) {
        self.opening = opening
    }

    func urlSession(_ session: URLSession, webSocketTask: URLSessionWebSocketTask, didOpenWithProtocol protocol: String?) {
        opening.resolve(.success(`protocol`))
    }

    func urlSession(
        _ session: URLSession, webSocketTask: URLSessionWebSocketTask, didCloseWith closeCode: URLSessionWebSocketTask.CloseCode, reason: Data?
    ) {
        let reason = reason.map { String(decoding: $0, as: UTF8.self) } ?? ""
        opening.resolve(.failure(WebSocketError.closed(code: UInt16(exactly: closeCode.rawValue), reason: reason)))
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        opening.resolve(.failure(Self.failure(error)))
    }

    /// Why a task ended before it opened.
    private static func failure(_ error: (any Error)?) -> WebSocketError {
        if let error = error as? URLError, error.code == .timedOut { return .timedOut }
        return .handshakeFailed(error.map { $0.localizedDescription } ?? "the connection ended before it opened")
    }
}
