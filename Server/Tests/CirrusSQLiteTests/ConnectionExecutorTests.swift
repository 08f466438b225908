import Foundation
@testable import CirrusSQLite
import Testing

@Suite("Async code on a connection's thread")
struct ConnectionExecutorTests {
    /// Hops off the calling task's executor and back, as an `await` on an actor does.
    actor Elsewhere {
        func value() -> Int { 42 }
    }

    /// The thread running the caller.
    static func thread() -> ObjectIdentifier {
        ObjectIdentifier(Thread.current)
    }

    @Test("the body runs on the calling thread, before and after it awaits another actor, and its result comes back")
    func runsOnTheCallingThread() throws {
        let caller = Self.thread()
        let elsewhere = Elsewhere()
        let (before, after, value) = try ConnectionExecutor.run { () async -> (Bool, Bool, Int) in
            let before = Self.thread() == caller
            let value = await elsewhere.value()
            return (before, Self.thread() == caller, value)
        }
        #expect(before)
        #expect(after)
        #expect(value == 42)
    }

    @Test("what the body throws is thrown to the caller")
    func throwsThrough() {
        struct Refused: Error, Equatable {}
        #expect(throws: Refused()) {
            try ConnectionExecutor.run { () async throws -> Int in throw Refused() }
        }
    }

    @Test("bodies on several threads at once each finish on their own thread")
    func concurrentBodies() async throws {
        let results = try await withThrowingTaskGroup(of: Bool.self) { group in
            for index in 0..<8 {
                group.addTask {
                    try await withCheckedThrowingContinuation { continuation in
                        Thread.detachNewThread {
                            let thread = Self.thread()
                            continuation.resume(with: Result {
                                try ConnectionExecutor.run { () async -> Bool in
                                    await Task.yield()
                                    return Self.thread() == thread && index >= 0
                                }
                            })
                        }
                    }
                }
            }
            return try await group.reduce(into: [Bool]()) { $0.append($1) }
        }
        #expect(results == Array(repeating: true, count: 8))
    }
}
