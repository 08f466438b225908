import Foundation

/// The messages a connection's reader has received and not yet handed out, and the receives waiting for one.
///
/// The reader thread ``deliver(_:)``s messages and ends the inbox once with ``finish(_:discardingMessages:)``;
/// ``receive()`` takes the oldest message, waits for one, or throws the error the inbox ended with once it has none
/// left. Messages wait in memory until they are received. Everything happens under one lock, and continuations are
/// resumed outside it.
final class WebSocketInbox: @unchecked Sendable {
    private typealias Waiter = (id: UInt64, continuation: CheckedContinuation<WebSocketMessage, any Error>)

    private let lock = NSLock()
    /// Messages not yet received, oldest first (from ``head`` on).
    private var messages: [WebSocketMessage] = []
    private var head = 0
    /// Receives waiting while there is no message, first come first served.
    private var waiters: [Waiter] = []
    private var nextWaiterID: UInt64 = 0
    /// Why the inbox ended, once it has.
    private var ending: WebSocketError?

    /// Why the inbox ended, once it has.
    var endingError: WebSocketError? {
        lock.withLock { ending }
    }

    /// Hands `message` to the oldest waiting receive, or keeps it for the next one. Ignored once the inbox has ended.
    func deliver(_ message: WebSocketMessage) {
        let waiter: Waiter? = lock.withLock {
            guard ending == nil else { return nil }
            guard waiters.isEmpty else { return waiters.removeFirst() }
            messages.append(message)
            return nil
        }
        waiter?.continuation.resume(returning: message)
    }

    /// Ends the inbox with `error` (the first call only): waiting receives throw it, and so do later ones once the
    /// messages kept are received, or at once when `discardingMessages`.
    /// - Returns: whether this call ended the inbox.
    @discardableResult
    func finish(_ error: WebSocketError, discardingMessages: Bool = false) -> Bool {
        let waiting: [Waiter]? = lock.withLock {
            guard ending == nil else { return nil }
            ending = error
            if discardingMessages {
                messages = []
                head = 0
            }
            defer { waiters = [] }
            return waiters
        }
        for waiter in waiting ?? [] { waiter.continuation.resume(throwing: error) }
        return waiting != nil
    }

    /// The oldest message not yet received, waiting for one if need be.
    /// - Throws: the error the inbox ended with once no message is left; `CancellationError` when the task is cancelled
    ///   while it waits.
    func receive() async throws -> WebSocketMessage {
        let id = lock.withLock {
            nextWaiterID += 1
            return nextWaiterID
        }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let ready = lock.withLock { take(id: id, continuation) }
                if let ready { continuation.resume(with: ready) }
            }
        } onCancel: {
            let waiter: Waiter? = lock.withLock {
                guard let index = waiters.firstIndex(where: { $0.id == id }) else { return nil }
                return waiters.remove(at: index)
            }
            waiter?.continuation.resume(throwing: CancellationError())
        }
    }

    /// Under the lock: what a receive gets at once, or `nil` after queueing it as a waiter. A task cancelled before it
    /// could queue is not queued: its cancellation handler has run, or will find no waiter.
    private func take(id: UInt64, _ continuation: CheckedContinuation<WebSocketMessage, any Error>) -> Result<WebSocketMessage, any Error>? {
        if head < messages.count {
            let message = messages[head]
            head += 1
            if head == messages.count || head >= 1024 {
                messages.removeFirst(head)
                head = 0
            }
            return .success(message)
        }
        if let ending { return .failure(ending) }
        if Task.isCancelled { return .failure(CancellationError()) }
        waiters.append((id, continuation))
        return nil
    }
}
