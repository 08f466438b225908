package import CirrusModel
import CirrusSQL
package import CirrusStorage

/// LiveQuery's subscriptions in the subscriptions table.
extension SQLStore {
    private var liveStatements: LiveSubscriptionStatements { LiveSubscriptionStatements(dialect: dialect) }

    package func saveLiveSubscription(_ subscription: StoredLiveSubscription, now: Timestamp) async throws {
        let statements = liveStatements
        let save = statements.save(
            queryId: subscription.queryId, clientId: subscription.clientId, className: subscription.className,
            query: JSONWriter.string(subscription.condition), keys: subscription.keys.map { JSONWriter.string(.array($0.map(JSON.string))) },
            returnACL: subscription.returnACL, sessionToken: subscription.sessionToken, expiresAt: subscription.expiresAt
        )
        try await writing { session in
            try await session.execute(statements.removeLapsed(clientId: subscription.clientId, now: now))
            try await session.execute(save)
        }
    }

    package func deleteLiveSubscription(queryId: String, clientId: String) async throws -> Bool {
        let statement = liveStatements.delete(queryId: queryId, clientId: clientId)
        return try await writing { try await !$0.rows(statement).isEmpty }
    }

    package func liveSubscriptions(clientId: String, now: Timestamp) async throws -> [StoredLiveSubscription] {
        let statement = liveStatements.list(clientId: clientId, now: now)
        return try await reading { try await $0.rows(statement).compactMap(Self.liveSubscription) }
    }

    package func renewLiveSubscription(queryId: String, clientId: String, until expiresAt: Timestamp) async throws -> Bool {
        let statement = liveStatements.renew(queryId: queryId, clientId: clientId, until: expiresAt)
        return try await writing { try await !$0.rows(statement).isEmpty }
    }

    /// A row of ``LiveSubscriptionStatements/list(clientId:now:)``; `nil` for one that cannot be read.
    static func liveSubscription(_ row: [SQLValue]) -> StoredLiveSubscription? {
        guard row.count >= 8, let queryId = row[0].text, let clientId = row[1].text, let className = row[2].text,
            let queryText = row[3].text, let condition = try? JSONParser.parse(queryText), let returnACL = row[5].integer,
            let expiresAt = row[7].integer
        else { return nil }
        let keys = row[4].text.flatMap { try? JSONParser.parse($0) }?.arrayValue?.compactMap(\.stringValue)
        return StoredLiveSubscription(
            queryId: queryId, clientId: clientId, className: className, condition: condition, keys: keys, returnACL: returnACL != 0,
            sessionToken: row[6].text, expiresAt: Timestamp(millisecondsSince1970: expiresAt)
        )
    }
}
