package import CirrusModel
import CirrusSQL
package import CirrusStorage

/// The queue of cloud code's after-hook calls in its table: calls are queued by the writes that owe them
/// (``WriteTransaction``) and taken, finished and retried by the delivery.
extension SQLStore {
    private var hookStatements: HookCallStatements { HookCallStatements(dialect: dialect) }

    package func claimHookCalls(now: Timestamp, leaseUntil: Timestamp, limit: Int) async throws -> [QueuedHookCall] {
        let statement = hookStatements.claim(now: now, leaseUntil: leaseUntil, limit: limit)
        return try await writing { try await $0.rows(statement).compactMap(Self.hookCall) }.sorted { $0.id < $1.id }
    }

    package func finishHookCall(id: Int64) async throws {
        let statement = hookStatements.finish(id: id)
        try await writing { try await $0.execute(statement) }
    }

    package func retryHookCall(id: Int64, attempts: Int, dueAt: Timestamp) async throws {
        let statement = hookStatements.retry(id: id, attempts: attempts, dueAt: dueAt)
        try await writing { try await $0.execute(statement) }
    }

    /// A row of ``HookCallStatements/claim(now:leaseUntil:limit:)``; `nil` for one that cannot be read.
    static func hookCall(_ row: [SQLValue]) -> QueuedHookCall? {
        guard row.count >= 7, let id = row[0].integer, let hook = row[1].text, let className = row[2].text, let objectId = row[3].text,
            let object = row[4].text, let attempts = row[6].integer
        else { return nil }
        return QueuedHookCall(id: id, hook: hook, className: className, objectId: objectId, object: object, userId: row[5].text, attempts: Int(attempts))
    }
}
