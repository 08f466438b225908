import CirrusConcurrency
import CirrusModel
import Testing

@Suite("Deadlines on one sweeping timer")
struct DeadlineWatchTests {
    final class Count: @unchecked Sendable {
        private let lock = Lock()
        private var value = 0

        var current: Int { lock.withLock { value } }
        func add() { lock.withLock { value += 1 } }
    }

    @Test("a deadline fires once after its time, a removed one never, and the timer stops once nothing is watched")
    func firesAndStops() async throws {
        let watch = DeadlineWatch()
        let (kept, removed) = (Count(), Count())
        let start = ContinuousClock.now
        _ = watch.add(.milliseconds(100)) { kept.add() }
        let entry = watch.add(.milliseconds(100)) { removed.add() }
        watch.remove(entry)
        #expect(watch.isSweeping)
        while kept.current == 0, ContinuousClock.now - start < .seconds(30) { try await Task.sleep(for: .milliseconds(10)) }
        #expect(ContinuousClock.now - start >= .milliseconds(100))
        // A sweep every 50 ms and 20 empty sweeps: idle after about a second.
        while watch.isSweeping, ContinuousClock.now - start < .seconds(30) { try await Task.sleep(for: .milliseconds(50)) }
        #expect(kept.current == 1)
        #expect(removed.current == 0)
        #expect(!watch.isSweeping)
    }
}
