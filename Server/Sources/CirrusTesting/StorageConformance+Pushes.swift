import CirrusModel
import CirrusStorage
import Foundation

/// Pushes: added once per request id within the window, claimed by one caller at a time with a lease, sent page by
/// page, finished, listed and cancelled.
extension StorageConformance {
    static var pushChecks: [StorageCheck] {
        [
            StorageCheck("a push is added once per request id within its window, claimed by one caller, resumed after its lease, and listed", pushLifecycle),
        ]
    }

    private static func push(_ id: String, due: Int64, requestId: String? = nil, created: Int64 = 1_000) -> StoredPush {
        StoredPush(
            objectId: id, status: .scheduled, request: #"{"data":{"alert":"hi"}}"#, pushTime: Timestamp(millisecondsSince1970: due),
            requestId: requestId, createdAt: Timestamp(millisecondsSince1970: created), updatedAt: Timestamp(millisecondsSince1970: created)
        )
    }

    private static func at(_ milliseconds: Int64) -> Timestamp {
        Timestamp(millisecondsSince1970: milliseconds)
    }

    static func pushLifecycle(_ driver: StorageConformanceDriver) async throws {
        let store = driver.store
        let tag = UUID().uuidString.prefix(8)
        let first = try await store.addPush(push("p1-\(tag)", due: 2_000, requestId: "r-\(tag)"), dedupeSince: at(0))
        try verify(first.added, "a new push")
        let again = try await store.addPush(push("p2-\(tag)", due: 2_000, requestId: "r-\(tag)"), dedupeSince: at(500))
        try verifyEqual([again.push.objectId, again.added ? "added" : "not added"], ["p1-\(tag)", "not added"], "the same request id within the window")
        let later = try await store.addPush(push("p3-\(tag)", due: 9_000, requestId: "r-\(tag)", created: 400_000), dedupeSince: at(300_000))
        try verify(later.added, "the same request id after the window")
        try verify(later.push.serial > first.push.serial, "serials grow")

        try verifyEqual(try await store.claimPush(now: at(1_000), leaseUntil: at(31_000)), nil, "nothing due before its time")
        let claims = try await withThrowingTaskGroup(of: StoredPush?.self) { group in
            for _ in 0..<4 { group.addTask { try await store.claimPush(now: at(2_500), leaseUntil: at(32_500)) } }
            return try await group.reduce(into: [StoredPush?]()) { $0.append($1) }
        }.compactMap { $0 }.filter { $0.objectId.hasSuffix(String(tag)) }
        try verifyEqual(claims.map(\.objectId), ["p1-\(tag)"], "one of four callers takes the due push")
        try verifyEqual(claims.first?.status, .sending, "a claimed push is sending")
        try await store.recordPushPage(objectId: "p1-\(tag)", cursor: "c1", sent: 5, failed: 1, invalid: 2, leaseUntil: at(40_000))
        try await store.recordPushPage(objectId: "p1-\(tag)", cursor: "c2", sent: 3, failed: 0, invalid: 0, leaseUntil: at(40_000))
        let resumed = try await store.claimPush(now: at(40_001), leaseUntil: at(70_000))
        try verifyEqual([resumed?.objectId, resumed?.cursor], ["p1-\(tag)", "c2"], "a push whose lease lapsed is taken again where it stopped")
        try verifyEqual([resumed?.sent, resumed?.failed, resumed?.invalid], [8, 1, 2], "its counts")
        try await store.finishPush(objectId: "p1-\(tag)", status: .done, at: at(41_000))
        try verifyEqual(try await store.push(objectId: "p1-\(tag)")?.status, .done, "a finished push")
        let scheduled = try await store.pushes(statuses: [.scheduled], limit: 100).filter { $0.objectId.hasSuffix(String(tag)) }
        try verifyEqual(scheduled.map(\.objectId), ["p3-\(tag)"], "the scheduled pushes")
        try verify(try await store.cancelPush(serial: later.push.serial, at: at(60_000)), "a scheduled push is cancelled")
        try verify(!(try await store.cancelPush(serial: first.push.serial, at: at(60_000))), "a done push is not")
        let leftover = try await store.claimPush(now: at(100_000), leaseUntil: at(130_000))
        try verify(leftover.map { !$0.objectId.hasSuffix(String(tag)) } ?? true, "neither a done nor a cancelled push is sent")
    }
}
