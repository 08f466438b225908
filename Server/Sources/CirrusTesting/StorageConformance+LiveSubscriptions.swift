import CirrusModel
import CirrusStorage

/// LiveQuery's subscriptions: kept per client, lapsing, removable and renewable only with their client's id.
extension StorageConformance {
    static var liveSubscriptionChecks: [StorageCheck] {
        [StorageCheck("LiveQuery subscriptions are kept per client until they lapse, and only their client removes or renews them", liveSubscriptions)]
    }

    static func liveSubscriptions(_ driver: StorageConformanceDriver) async throws {
        let store = driver.store
        let now = Timestamp(millisecondsSince1970: 1_000_000)
        func subscription(_ queryId: String, _ clientId: String, lapsing: Int64) -> StoredLiveSubscription {
            StoredLiveSubscription(
                queryId: queryId, clientId: clientId, className: "Todo", condition: ["n": ["$gt": 1]], keys: queryId == "q1" ? ["n", "title"] : nil,
                returnACL: queryId == "q1", sessionToken: queryId == "q1" ? "r:token" : nil,
                expiresAt: Timestamp(millisecondsSince1970: now.millisecondsSince1970 + lapsing)
            )
        }
        try await store.saveLiveSubscription(subscription("q1", "a", lapsing: 1_000), now: now)
        try await store.saveLiveSubscription(subscription("q2", "a", lapsing: 10), now: now)
        try await store.saveLiveSubscription(subscription("q3", "b", lapsing: 1_000), now: now)
        try verifyEqual(try await store.liveSubscriptions(clientId: "a", now: now), [subscription("q1", "a", lapsing: 1_000), subscription("q2", "a", lapsing: 10)], "client a's subscriptions")
        let later = Timestamp(millisecondsSince1970: now.millisecondsSince1970 + 100)
        try verifyEqual(try await store.liveSubscriptions(clientId: "a", now: later).map(\.queryId), ["q1"], "client a's subscriptions once q2 lapsed")
        try verify(try await !store.deleteLiveSubscription(queryId: "q1", clientId: "b"), "another client cannot remove a's subscription")
        try verify(try await !store.renewLiveSubscription(queryId: "q1", clientId: "b", until: later), "another client cannot renew a's subscription")
        try verify(try await store.renewLiveSubscription(queryId: "q3", clientId: "b", until: Timestamp(millisecondsSince1970: 5_000_000)), "b renews q3")
        try verifyEqual(try await store.liveSubscriptions(clientId: "b", now: Timestamp(millisecondsSince1970: 4_000_000)).map(\.queryId), ["q3"], "a renewed subscription")
        try verify(try await store.deleteLiveSubscription(queryId: "q1", clientId: "a"), "a removes q1")
        try verifyEqual(try await store.liveSubscriptions(clientId: "a", now: now).map(\.queryId), ["q2"], "client a's subscriptions after the removal")
    }
}
