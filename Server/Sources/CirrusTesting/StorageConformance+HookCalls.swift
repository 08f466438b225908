import CirrusModel
import CirrusStorage

/// The queue of cloud code's after-hook calls: filled by the writes that owe them, in their transactions, and handed
/// out in each object's order.
extension StorageConformance {
    static var hookCallChecks: [StorageCheck] {
        [
            StorageCheck("after-hook calls are queued with their writes only, and handed out one per object, in order, until finished", hookCallQueue),
        ]
    }

    /// `command` owing the after-hook `hook` of user `u1`.
    private static func owing(_ hook: String, _ command: WriteCommand) -> WriteCommand {
        let request = AfterHookRequest(hook: hook, userId: "u1")
        switch command {
        case .insert(var insert):
            insert.afterHook = request
            return .insert(insert)
        case .update(var update):
            update.afterHook = request
            return .update(update)
        case .delete(var delete):
            delete.afterHook = request
            return .delete(delete)
        case .account: return command
        }
    }

    private static func at(_ seconds: Int64) -> Timestamp {
        Timestamp(millisecondsSince1970: Timestamp.now().millisecondsSince1970 + seconds * 1000)
    }

    static func hookCallQueue(_ driver: StorageConformanceDriver) async throws {
        let store = driver.store
        try verifySuccess(try await driver.perform(owing("__after_save_for_Hooked", try driver.insertCommand("Hooked", ["n": 1], id: "h1"))), "a hooked insert")
        try verifySuccess(
            try await driver.perform(owing("__after_update_for_Hooked", try await driver.updateCommand("Hooked", "h1", ["n": ["__op": "Increment"]]))),
            "a hooked update"
        )
        try verifySuccess(try await driver.perform(owing("__after_save_for_Hooked", try driver.insertCommand("Hooked", ["n": 5], id: "h2"))), "another")
        try verifySuccess(try await driver.perform(try driver.insertCommand("Hooked", ["n": 9], id: "h9")), "an insert owing nothing")
        // A rolled-back batch queues nothing: its second insert reuses an id.
        let batch = [
            owing("__after_save_for_Hooked", try driver.insertCommand("Hooked", ["n": 3], id: "h3")),
            owing("__after_save_for_Hooked", try driver.insertCommand("Hooked", ["n": 4], id: "h1")),
        ]
        _ = try await store.perform(batch, atomically: true)

        // h1's update waits behind its save; h2's save goes at once.
        let first = try await store.claimHookCalls(now: at(1), leaseUntil: at(60), limit: 10)
        try verifyEqual(first.map { "\($0.hook) \($0.objectId) \($0.attempts)" }, ["__after_save_for_Hooked h1 0", "__after_save_for_Hooked h2 0"], "the first calls")
        let saved = try JSONParser.parse(Array(first[0].object.utf8))
        try verifyEqual([saved["n"], saved["objectId"], saved["_updatedKeys"]], [.int(1), .string("h1"), nil], "a save's object")
        try verify(first.allSatisfy { $0.userId == "u1" && $0.className == "Hooked" }, "each call names its class and user")
        try verifyEqual(try await store.claimHookCalls(now: at(1), leaseUntil: at(60), limit: 10), [], "calls held by a lease")

        try await store.finishHookCall(id: first[0].id)
        try await store.retryHookCall(id: first[1].id, attempts: 1, dueAt: at(120))
        let next = try await store.claimHookCalls(now: at(61), leaseUntil: at(90), limit: 10)
        try verifyEqual(next.map { "\($0.hook) \($0.objectId) \($0.attempts)" }, ["__after_update_for_Hooked h1 0"], "the update, once the save is done")
        let updated = try JSONParser.parse(Array(next[0].object.utf8))
        try verifyEqual([updated["n"], updated["_updatedKeys"]], [.int(2), ["n"]], "an update's object and keys")
        try await store.finishHookCall(id: next[0].id)

        try verifySuccess(try await driver.perform(owing("__after_delete_for_Hooked", try await driver.deleteCommand("Hooked", ["h2"]))), "a hooked delete")
        let retried = try await store.claimHookCalls(now: at(121), leaseUntil: at(180), limit: 10)
        try verifyEqual(retried.map { "\($0.hook) \($0.objectId) \($0.attempts)" }, ["__after_save_for_Hooked h2 1"], "the retried call, its delete behind it")
        try await store.finishHookCall(id: retried[0].id)
        let deleted = try await store.claimHookCalls(now: at(121), leaseUntil: at(180), limit: 10)
        try verifyEqual(deleted.map { "\($0.hook) \($0.objectId)" }, ["__after_delete_for_Hooked h2"], "the delete's call")
        try verifyEqual(try JSONParser.parse(Array(deleted[0].object.utf8))["n"], .int(5), "a delete's object, as it was")
        try await store.finishHookCall(id: deleted[0].id)
        try verifyEqual(try await store.claimHookCalls(now: at(600), leaseUntil: at(700), limit: 10), [], "the queue, emptied")
    }
}
