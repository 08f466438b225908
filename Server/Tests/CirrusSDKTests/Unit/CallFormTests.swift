@testable import Cirrus
import CirrusModel
import Foundation
import Testing

/// The completion-handler and blocking forms of the calls.
@Suite("Call forms")
struct CallFormTests {
    @Test("a completion handler gets .success on the queue it asked for")
    func completionOnQueue() async throws {
        let transport = RecordingTransport(json: [#"{"objectId":"t1","createdAt":"2026-01-01T00:00:00.000Z"}"#])
        let todo = LCObject(application: try makeApplication(transport), className: "Todo")
        let queue = DispatchQueue(label: "completion")
        let key = DispatchSpecificKey<Bool>()
        queue.setSpecific(key: key, value: true)
        let (succeeded, onQueue) = await withCheckedContinuation { continuation in
            _ = todo.save(completionQueue: queue) { result in
                continuation.resume(returning: (result.isSuccess, DispatchQueue.getSpecific(key: key) == true))
            }
        }
        #expect(succeeded && onQueue)
    }

    @Test("completion handlers run on the main queue by default")
    func completionOnMain() async throws {
        let transport = RecordingTransport(json: [#"{"results":[],"count":3}"#])
        let query = LCQuery(application: try makeApplication(transport), className: "Todo")
        let key = DispatchSpecificKey<Bool>()
        DispatchQueue.main.setSpecific(key: key, value: true)
        let (count, isMain) = await withCheckedContinuation { continuation in
            _ = query.count { result in continuation.resume(returning: (result.intValue, DispatchQueue.getSpecific(key: key) == true)) }
        }
        #expect(count == 3 && isMain)
    }

    @Test("a failure reaches the completion handler as .failure(error:) with the server's code")
    func completionFailure() async throws {
        let transport = RecordingTransport([TransportResponse(status: 404, body: Data(#"{"code":101,"error":"Class or object doesn't exists."}"#.utf8))])
        let query = LCQuery(application: try makeApplication(transport), className: "Todo")
        let code: Int? = await withCheckedContinuation { continuation in
            _ = query.get("582570f38ac247004f39c24b", completionQueue: .global()) { result in
                switch result {
                case .success: continuation.resume(returning: nil)
                case .failure(error: let error): continuation.resume(returning: error.code)
                }
            }
        }
        #expect(code == 101)
    }

    @Test("the blocking forms return the result to a thread outside the concurrency pool")
    func blocking() async throws {
        let transport = RecordingTransport(json: [#"{"objectId":"t1","createdAt":"2026-01-01T00:00:00.000Z"}"#, #"{"results":[],"count":2}"#])
        let application = try makeApplication(transport)
        let (saved, count) = await onThread {
            let todo = LCObject(application: application, className: "Todo")
            let result: LCBooleanResult = todo.save()
            let count: LCCountResult = LCQuery(application: application, className: "Todo").count()
            return (result.isSuccess, count.intValue)
        }
        #expect(saved && count == 2)
    }
}

/// Runs `body` on a new thread (not one of the concurrency pool's, which blocking calls must not park).
func onThread<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
    await withCheckedContinuation { continuation in
        Thread { continuation.resume(returning: body()) }.start()
    }
}

/// A transport whose requests never finish unless their task is cancelled.
struct HangingTransport: Transport {
    func send(_ request: TransportRequest) async throws -> TransportResponse {
        try await Task.sleep(for: .seconds(86_400))
        return TransportResponse(status: 200)
    }
}

@Suite("Cancellation")
struct CancellationTests {
    @Test("cancelling a request ends it with a failure handed to its completion handler")
    func cancel() async throws {
        let application = try LCApplication(
            id: "id", key: "key", serverURL: "https://api.example.com",
            configuration: .init(transport: HangingTransport(), currentUserStorage: .none)
        )
        let todo = LCObject(application: application, className: "Todo")
        let error: LCError? = await withCheckedContinuation { continuation in
            let request = todo.save(completionQueue: .global()) { result in continuation.resume(returning: result.error) }
            request.cancel()
        }
        #expect(error?.code == URLError.cancelled.rawValue)
        #expect(todo.objectId == nil)
    }
}

/// What tests of code in the completion-handler style wait for.
@Suite("Pending calls")
struct PendingCallsTests {
    @Test("idle() returns once the calls started under it and inside their completion handlers are over, with their results")
    func nested() async throws {
        let transport = RecordingTransport(json: [#"{"objectId":"t1","createdAt":"2026-01-01T00:00:00.000Z"}"#, #"{"results":[],"count":4}"#])
        let application = try makeApplication(transport)
        let pending = PendingCalls()
        let handled = ResultBox<Int>()
        PendingCalls.$current.withValue(pending) {
            _ = LCObject(application: application, className: "Todo").save(completionQueue: .global()) { _ in
                _ = LCQuery(application: application, className: "Todo").count(completionQueue: .global()) { result in
                    handled.set(result.intValue)
                }
            }
        }
        await pending.idle()
        #expect(handled.get() == 4)
        #expect(transport.requests.count == 2)
        #expect(pending.results.count == 2)
        #expect((pending.results.last as? LCCountResult)?.intValue == 4)
    }

    @Test("a call started outside the PendingCalls is not waited for")
    func outside() async throws {
        let application = try LCApplication(
            id: "id", key: "key", serverURL: "https://api.example.com",
            configuration: .init(transport: HangingTransport(), currentUserStorage: .none)
        )
        let pending = PendingCalls()
        let request = LCObject(application: application, className: "Todo").save(completionQueue: .global()) { _ in }
        await pending.idle()
        request.cancel()
        #expect(pending.results.isEmpty)
    }
}
