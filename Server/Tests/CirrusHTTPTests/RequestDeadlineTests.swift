@testable import CirrusHTTP
import CirrusModel
import Testing

@Suite("Request deadline")
struct RequestDeadlineTests {
    /// Whether a piece of work saw its cancellation.
    final class Flag: @unchecked Sendable {
        private let lock = Lock()
        private var value = false

        var isSet: Bool { lock.withLock { value } }
        func set() { lock.withLock { value = true } }
    }

    @Test("work that finishes in time gives its result")
    func inTime() async {
        #expect(await RequestDeadline.run(.seconds(600)) { 42 } == 42)
    }

    @Test("work stuck where cancellation does not reach is answered at the deadline and left behind")
    func stuckWork() async {
        let start = ContinuousClock.now
        let result = await RequestDeadline.run(.milliseconds(300)) {
            await withCheckedContinuation { (_: CheckedContinuation<Int, Never>) in }
        }
        #expect(result == nil)
        // Without the deadline it never returns; the bound leaves room for a machine running every suite at once.
        #expect(ContinuousClock.now - start < .seconds(60))
    }

    @Test("work past its deadline is cancelled")
    func cancelsLateWork() async throws {
        let cancelled = Flag()
        let result = await RequestDeadline.run(.milliseconds(200)) { () -> Int in
            do {
                try await Task.sleep(for: .seconds(60))
            } catch {
                cancelled.set()
            }
            return 1
        }
        #expect(result == nil)
        let deadline = ContinuousClock.now + .seconds(10)
        while !cancelled.isSet, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(20)) }
        #expect(cancelled.isSet)
    }

    @Test("a cancelled caller is answered at once and its work cancelled")
    func cancelledCaller() async throws {
        let cancelled = Flag()
        let caller = Task {
            await RequestDeadline.run(.seconds(600)) { () -> Int in
                do { try await Task.sleep(for: .seconds(600)) } catch { cancelled.set() }
                return 1
            }
        }
        try await Task.sleep(for: .milliseconds(100))
        let start = ContinuousClock.now
        caller.cancel()
        #expect(await caller.value == nil)
        // "At once" beside every other suite on two cores (stalls reached 45 s in CI), far below the 600 s work.
        #expect(ContinuousClock.now - start < .seconds(120))
        let deadline = ContinuousClock.now + .seconds(120)
        while !cancelled.isSet, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(20)) }
        #expect(cancelled.isSet)
    }
}
