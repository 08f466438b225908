import CirrusModel
import NIOCore

/// The open connections of a server, at most ``limit`` of them.
///
/// A connection beyond the limit takes the place of the connection that has been idle (between requests) the longest,
/// which is closed; when no connection has been idle for ``minimumIdleAge`` it is refused. (A connection just
/// accepted counts as idle until its first bytes are read: the age keeps it from being closed before it could send.) So clients that open connections and send nothing
/// (or keep idle keep-alive connections) cannot lock others out, and the process never runs out of file descriptors
/// for connections.
package final class ConnectionLimiter: @unchecked Sendable {
    /// The most connections held open at once.
    package let limit: Int
    /// How long a connection must have been idle to be closed to make room.
    static let minimumIdleAge: TimeAmount = .milliseconds(500)
    private let lock = Lock()
    private var connections: [UInt64: Entry] = [:]
    private var nextID: UInt64 = 0

    private struct Entry {
        let channel: any Channel
        /// When the connection last became idle; `nil` while a request is on it.
        var idleSince: NIODeadline?
    }

    package init(limit: Int) {
        self.limit = max(1, limit)
    }

    /// How many connections are open.
    package var count: Int { lock.withLock { connections.count } }

    /// Registers a new connection, idle from now. At the limit it closes the longest-idle connection to make room;
    /// `nil` when none has been idle long enough and the new one must be refused.
    func admit(_ channel: any Channel) -> UInt64? {
        let (id, evicted) = lock.withLock { () -> (UInt64?, (any Channel)?) in
            var evicted: (any Channel)?
            if connections.count >= limit {
                guard let oldest = longestIdle(1).first else { return (nil, nil) }
                evicted = connections.removeValue(forKey: oldest)?.channel
            }
            nextID += 1
            connections[nextID] = Entry(channel: channel, idleSince: .now())
            return (nextID, evicted)
        }
        evicted?.close(promise: nil)
        return id
    }

    /// Closes up to `count` of the longest-idle connections (the process ran out of file descriptors); returns how
    /// many.
    func closeIdle(_ count: Int) -> Int {
        let closing = lock.withLock { longestIdle(count).compactMap { connections.removeValue(forKey: $0)?.channel } }
        for channel in closing { channel.close(promise: nil) }
        return closing.count
    }

    /// Records whether the connection is between requests (and may be closed to make room).
    func setIdle(_ id: UInt64, _ idle: Bool) {
        lock.withLock { connections[id]?.idleSince = idle ? .now() : nil }
    }

    /// The ids of the (at most) `count` connections idle the longest, and for at least ``minimumIdleAge``. Called with
    /// the lock held.
    private func longestIdle(_ count: Int) -> [UInt64] {
        let threshold = NIODeadline.now() - Self.minimumIdleAge
        var candidates: [(id: UInt64, since: NIODeadline)] = []
        for (id, entry) in connections {
            if let since = entry.idleSince, since <= threshold { candidates.append((id, since)) }
        }
        if count == 1 { return candidates.min { $0.since < $1.since }.map { [$0.id] } ?? [] }
        return candidates.sorted { $0.since < $1.since }.prefix(count).map(\.id)
    }

    /// Forgets a closed connection.
    func remove(_ id: UInt64) {
        _ = lock.withLock { connections.removeValue(forKey: id) }
    }
}
