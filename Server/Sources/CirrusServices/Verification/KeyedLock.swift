/// An asynchronous lock per key: at most one task at a time runs a body for a given key, others wait in order.
///
/// It makes "check the send limits, then send and record" and "check a code, use it, then delete it" atomic per
/// phone number or address within one server process.
actor KeyedLock {
    private var held: Set<String> = []
    private var waiters: [String: [CheckedContinuation<Void, Never>]] = [:]

    /// Runs `body` while holding the lock of `key`.
    nonisolated func withLock<T: Sendable>(_ key: String, _ body: () async throws -> T) async throws -> T {
        await acquire(key)
        do {
            let result = try await body()
            await release(key)
            return result
        } catch {
            await release(key)
            throw error
        }
    }

    private func acquire(_ key: String) async {
        guard held.contains(key) else {
            held.insert(key)
            return
        }
        await withCheckedContinuation { waiters[key, default: []].append($0) }
    }

    /// Hands the lock to the oldest waiter, or frees it.
    private func release(_ key: String) {
        guard var queue = waiters[key], !queue.isEmpty else {
            held.remove(key)
            return
        }
        let next = queue.removeFirst()
        waiters[key] = queue.isEmpty ? nil : queue
        next.resume()
    }
}
