import CirrusModel
import NIOCore

extension SMTPTestServer {
    /// The accepted connections that are still open.
    final class Connections: @unchecked Sendable {
        private let lock = Lock()
        private var channels: [ObjectIdentifier: any Channel] = [:]

        func add(_ channel: any Channel) {
            let id = ObjectIdentifier(channel)
            lock.withLock { channels[id] = channel }
            channel.closeFuture.whenComplete { _ in self.lock.withLock { _ = self.channels.removeValue(forKey: id) } }
        }

        func open() -> [any Channel] {
            lock.withLock { Array(channels.values) }
        }
    }
}
