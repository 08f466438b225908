import CirrusModel
import Foundation

extension SMTPTestServer {
    /// The messages a server received, and the tasks waiting for the next one.
    final class Inbox: @unchecked Sendable {
        private let lock = Lock()
        private var received: [ReceivedMail] = []
        private var unread: [ReceivedMail] = []
        private var waiters: [(id: UUID, continuation: CheckedContinuation<ReceivedMail, any Error>)] = []

        /// Every message so far, oldest first.
        var all: [ReceivedMail] { lock.withLock { received } }

        /// Records `mail` and hands it to the oldest waiting task, or keeps it unread.
        func deliver(_ mail: ReceivedMail) {
            let waiter = lock.withLock {
                received.append(mail)
                if waiters.isEmpty { unread.append(mail) }
                return waiters.isEmpty ? nil : waiters.removeFirst()
            }
            waiter?.continuation.resume(returning: mail)
        }

        /// The oldest unread message, waiting for one when there is none; cancellation throws `CancellationError`.
        func next() async throws -> ReceivedMail {
            let id = UUID()
            return try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { continuation in
                    let outcome: Result<ReceivedMail, any Error>? = lock.withLock {
                        if !unread.isEmpty { return .success(unread.removeFirst()) }
                        if Task.isCancelled { return .failure(CancellationError()) }
                        waiters.append((id, continuation))
                        return nil
                    }
                    if let outcome { continuation.resume(with: outcome) }
                }
            } onCancel: {
                let waiter = lock.withLock { () -> CheckedContinuation<ReceivedMail, any Error>? in
                    guard let index = waiters.firstIndex(where: { $0.id == id }) else { return nil }
                    return waiters.remove(at: index).continuation
                }
                waiter?.resume(throwing: CancellationError())
            }
        }
    }
}
