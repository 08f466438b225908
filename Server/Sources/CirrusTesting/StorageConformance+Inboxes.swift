import CirrusModel
import CirrusStorage
import Foundation

/// Inboxes: numbers increase per inbox in delivery order, paging by number, counts, read marks and removal.
extension StorageConformance {
    static var inboxChecks: [StorageCheck] {
        [
            StorageCheck("statuses delivered to inboxes are numbered per inbox, paged newest first, counted, marked read and removed", inboxLifecycle),
            StorageCheck("concurrent deliveries to the same inboxes give each status its own number in every inbox", inboxConcurrency),
        ]
    }

    private static func user(_ id: String) -> InboxOwner {
        InboxOwner(className: "_User", objectId: id)
    }

    static func inboxLifecycle(_ driver: StorageConformanceDriver) async throws {
        let store = driver.store
        let tag = UUID().uuidString.prefix(8)
        let (alice, bob) = (user("alice-\(tag)"), user("bob-\(tag)"))
        let aliceDefault = InboxKey(owner: alice, type: "default")
        try await store.deliver(statusId: "s1-\(tag)", to: [alice, bob, alice], type: "default")
        try await store.deliver(statusId: "s2-\(tag)", to: [alice], type: "default")
        try await store.deliver(statusId: "s3-\(tag)", to: [alice], type: "private")
        try await store.deliver(statusId: "s4-\(tag)", to: [bob, alice], type: "default")

        let all = try await store.inbox(aliceDefault, sinceId: 0, maxId: 0, limit: 100)
        try verifyEqual(all.map(\.statusId), ["s4-\(tag)", "s2-\(tag)", "s1-\(tag)"], "newest first, one entry per delivery")
        try verifyEqual(all.map(\.messageId), [3, 2, 1], "numbers of one inbox")
        let bobs = try await store.inbox(InboxKey(owner: bob, type: "default"), sinceId: 0, maxId: 0, limit: 100)
        try verifyEqual(bobs.map(\.messageId), [2, 1], "another inbox counts on its own")
        try verifyEqual(try await store.inbox(InboxKey(owner: alice, type: "private"), sinceId: 0, maxId: 0, limit: 10).map(\.statusId), ["s3-\(tag)"], "another type")
        try verifyEqual(try await store.inbox(aliceDefault, sinceId: 1, maxId: 0, limit: 100).map(\.messageId), [3, 2], "sinceId")
        try verifyEqual(try await store.inbox(aliceDefault, sinceId: 0, maxId: 2, limit: 100).map(\.messageId), [2, 1], "maxId")
        try verifyEqual(try await store.inbox(aliceDefault, sinceId: 0, maxId: 0, limit: 1).map(\.messageId), [3], "limit")

        let counted = try await store.inboxCount(aliceDefault)
        try verifyEqual([counted.total, counted.unread], [3, 3], "total and unread")
        try await store.markInboxRead(aliceDefault)
        let read = try await store.inboxCount(aliceDefault)
        try verifyEqual([read.total, read.unread], [3, 0], "after marking read")
        try await store.deliver(statusId: "s5-\(tag)", to: [alice], type: "default")
        let fresh = try await store.inboxCount(aliceDefault)
        try verifyEqual([fresh.total, fresh.unread], [4, 1], "a new status is unread")

        try verify(try await store.removeInboxEntry(aliceDefault, messageId: 2), "an entry is removed")
        try verify(!(try await store.removeInboxEntry(aliceDefault, messageId: 2)), "only once")
        // Deleting the status object, by whatever path, takes it out of every inbox in the delete's transaction.
        let stamp = Timestamp.now()
        let status = StoredObject(className: InboxKey.statusClass, objectId: "s1-\(tag)", createdAt: stamp, updatedAt: stamp, acl: nil, fields: ["m": "x"])
        _ = try await store.perform([.insert(WriteCommand.Insert(object: status, relations: [], newFields: ["m": .string], maximumSize: 131_072))], atomically: true)
        let removed = try await store.perform(
            [.delete(WriteCommand.Delete(className: InboxKey.statusClass, objectIds: ["s1-\(tag)"], condition: nil, schema: nil))], atomically: true
        )
        try verify(removed.allSatisfy { if case .success = $0 { true } else { false } }, "the status is deleted")
        try verifyEqual(try await store.inbox(aliceDefault, sinceId: 0, maxId: 0, limit: 100).map(\.statusId), ["s5-\(tag)", "s4-\(tag)"], "a status removed from every inbox")
        try verifyEqual(try await store.inbox(InboxKey(owner: bob, type: "default"), sinceId: 0, maxId: 0, limit: 100).map(\.statusId), ["s4-\(tag)"], "bob's too")
        try await store.deliver(statusId: "s6-\(tag)", to: [alice], type: "default")
        try verifyEqual(try await store.inbox(aliceDefault, sinceId: 0, maxId: 0, limit: 1).map(\.messageId), [5], "numbers are not reused")
    }

    static func inboxConcurrency(_ driver: StorageConformanceDriver) async throws {
        let store = driver.store
        let tag = UUID().uuidString.prefix(8)
        let owners = (0..<30).map { user("u\($0)-\(tag)") }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<8 {
                // Each delivery reaches the owners in another order.
                let order = index.isMultiple(of: 2) ? owners : owners.reversed()
                group.addTask { try await store.deliver(statusId: "c\(index)-\(tag)", to: order, type: "default") }
            }
            try await group.waitForAll()
        }
        for owner in [owners[0], owners[29]] {
            let entries = try await store.inbox(InboxKey(owner: owner, type: "default"), sinceId: 0, maxId: 0, limit: 100)
            try verifyEqual(entries.map(\.messageId), Array((1...8).reversed()), "eight numbers, none twice")
            try verifyEqual(Set(entries.map(\.statusId)).count, 8, "every status once")
        }
    }
}
