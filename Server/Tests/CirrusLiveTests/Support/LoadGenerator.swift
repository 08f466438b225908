import CirrusTesting
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Clients that keep a server busy (creates and finds, with the app key) until stopped, and remember how every
/// request ended and how long it took.
final class LoadGenerator: @unchecked Sendable {
    /// How one request ended.
    struct Outcome: Sendable {
        let started: ContinuousClock.Instant
        let elapsed: Duration
        /// The HTTP status, or `nil` when no reply came (the error says why).
        let status: Int?
        let error: String?
    }

    private let lock = NSLock()
    private var outcomes: [Outcome] = []
    private var running = true
    private var workers: [Task<Void, Never>] = []

    /// Starts `clients` concurrent clients against `server`; a client gives a request at most `patience`.
    init(_ server: LiveServer, clients: Int = 8, patience: TimeInterval = 20) {
        for index in 0..<clients {
            let configuration = URLSessionConfiguration.ephemeral
            configuration.timeoutIntervalForRequest = patience
            let session = URLSession(configuration: configuration)
            workers.append(Task { await self.work(index, server: server, session: session) })
        }
    }

    /// Every request so far.
    var all: [Outcome] { lock.withLock { outcomes } }

    /// Stops the clients and waits until their last requests have ended.
    func stop() async {
        lock.withLock { running = false }
        for worker in workers { await worker.value }
    }

    /// Waits until a request started after `instant` succeeded; whether one did within `timeout`.
    func succeeds(after instant: ContinuousClock.Instant, within timeout: Duration) async -> Bool {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if all.contains(where: { $0.started > instant && ($0.status ?? 500) < 300 }) { return true }
            try? await Task.sleep(for: .milliseconds(100))
        }
        return false
    }

    private var isRunning: Bool { lock.withLock { running } }

    private func work(_ index: Int, server: LiveServer, session: URLSession) async {
        var count = 0
        while isRunning {
            count += 1
            var request = URLRequest(url: URL(string: server.client.baseURL + (count % 2 == 0 ? "/1.1/classes/Load?limit=1" : "/1.1/classes/Load"))!)
            for (name, value) in server.client.appKeyHeaders { request.setValue(value, forHTTPHeaderField: name) }
            if count % 2 == 1 {
                request.httpMethod = "POST"
                request.setValue("application/json", forHTTPHeaderField: "Content-Type")
                request.httpBody = Data(JSONWriter.bytes(["client": .int(Int64(index)), "n": .int(Int64(count))]))
            }
            let started = ContinuousClock.now
            let outcome: Outcome
            do {
                let (_, response) = try await session.data(for: request)
                outcome = Outcome(started: started, elapsed: .now - started, status: (response as? HTTPURLResponse)?.statusCode, error: nil)
            } catch {
                outcome = Outcome(started: started, elapsed: .now - started, status: nil, error: "\(error)")
                // A refused connection (the server has stopped) is retried at a calm pace.
                try? await Task.sleep(for: .milliseconds(50))
            }
            lock.withLock { outcomes.append(outcome) }
        }
        session.invalidateAndCancel()
    }
}
