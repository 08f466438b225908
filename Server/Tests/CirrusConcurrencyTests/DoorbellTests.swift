import CirrusConcurrency
import Testing

@Suite("A doorbell that wakes a polling loop early")
struct DoorbellTests {
    static func elapsed(_ body: () async -> Void) async -> Duration {
        let clock = ContinuousClock()
        let start = clock.now
        await body()
        return clock.now - start
    }

    /// "At once", on a machine running every suite together (whose stalls reached 45 s in CI): far below the
    /// 600 s waits these tests would otherwise last.
    static let atOnce: Duration = .seconds(120)

    @Test("a wait without a ring lasts its timeout")
    func timesOut() async {
        let bell = Doorbell()
        let waited = await Self.elapsed { await bell.wait(upTo: .milliseconds(200)) }
        #expect(waited >= .milliseconds(190))
    }

    @Test("a ring ends a pending wait at once, and a ring with no one waiting ends the next wait, once")
    func rings() async {
        let bell = Doorbell()
        async let waited = Self.elapsed { await bell.wait(upTo: .seconds(600)) }
        try? await Task.sleep(for: .milliseconds(100))
        bell.ring()
        #expect(await waited < Self.atOnce)
        bell.ring()
        bell.ring()
        #expect(await Self.elapsed { await bell.wait(upTo: .seconds(600)) } < Self.atOnce)
        #expect(await Self.elapsed { await bell.wait(upTo: .milliseconds(200)) } >= .milliseconds(190))
    }

    @Test("a cancelled wait returns")
    func cancelled() async {
        let bell = Doorbell()
        let task = Task { await bell.wait(upTo: .seconds(600)) }
        try? await Task.sleep(for: .milliseconds(50))
        task.cancel()
        let waited = await Self.elapsed { await task.value }
        #expect(waited < Self.atOnce)
    }
}
