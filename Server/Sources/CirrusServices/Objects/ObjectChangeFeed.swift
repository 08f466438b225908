package import CirrusStorage
import CirrusModel

/// The object changes this instance committed and those the other instances sharing its database announced, for
/// whoever subscribes (live queries build on it). A subscriber gets the changes made after it subscribed, in the
/// order this instance learned of them; one that falls more than `bufferSize` changes behind loses the oldest.
package final class ObjectChangeFeed: Sendable {
    private let subscribers = Lock()
    nonisolated(unsafe) private var continuations: [Int: AsyncStream<ObjectChange>.Continuation] = [:]
    nonisolated(unsafe) private var nextToken = 0
    private let bufferSize: Int

    package init(bufferSize: Int = 10_000) {
        self.bufferSize = bufferSize
    }

    /// The changes from now on, until the stream is dropped or cancelled.
    package func subscribe() -> AsyncStream<ObjectChange> {
        let (stream, continuation) = AsyncStream.makeStream(of: ObjectChange.self, bufferingPolicy: .bufferingNewest(bufferSize))
        let token = subscribers.withLock {
            nextToken += 1
            continuations[nextToken] = continuation
            return nextToken
        }
        continuation.onTermination = { [weak self] _ in
            guard let self else { return }
            _ = self.subscribers.withLock { self.continuations.removeValue(forKey: token) }
        }
        return stream
    }

    /// How many subscribe now.
    package var subscriberCount: Int { subscribers.withLock { continuations.count } }

    /// Hands `change` to every subscriber.
    func publish(_ change: ObjectChange) {
        for continuation in subscribers.withLock({ Array(continuations.values) }) { continuation.yield(change) }
    }
}
