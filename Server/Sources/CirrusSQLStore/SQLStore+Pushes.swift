package import CirrusModel
import CirrusSQL
package import CirrusStorage

/// The pushes in their table.
extension SQLStore {
    private var pushStatements: PushStatements { PushStatements(dialect: dialect) }

    package func addPush(_ push: StoredPush, dedupeSince: Timestamp) async throws -> (push: StoredPush, added: Bool) {
        let (statements, dialect) = (pushStatements, dialect)
        return try await writing { session -> (StoredPush, Bool) in
            if let requestId = push.requestId {
                // Concurrent requests with one id wait for each other here (on PostgreSQL; SQLite has one writer).
                if let lock = dialect.transactionLock("cirrus-push:" + requestId) { try await session.execute(lock) }
                if let earlier = try await session.rows(statements.withRequestId(requestId, since: dedupeSince)).compactMap(Self.push).first {
                    return (earlier, false)
                }
            }
            let row = PushStatements.Row(
                objectId: push.objectId, status: push.status.rawValue, request: push.request, pushTime: push.pushTime, expiresAt: push.expiresAt,
                requestId: push.requestId, createdAt: push.createdAt
            )
            guard let added = try await session.rows(statements.insert(row)).compactMap(Self.push).first else {
                throw StorageError.database("a push was not added")
            }
            return (added, true)
        }
    }

    package func claimPush(now: Timestamp, leaseUntil: Timestamp) async throws -> StoredPush? {
        let statement = pushStatements.claim(now: now, leaseUntil: leaseUntil)
        return try await writing { try await $0.rows(statement).compactMap(Self.push).first }
    }

    package func recordPushPage(objectId: String, cursor: String, sent: Int, failed: Int, invalid: Int, leaseUntil: Timestamp) async throws {
        let statement = pushStatements.recordPage(objectId: objectId, cursor: cursor, sent: sent, failed: failed, invalid: invalid, leaseUntil: leaseUntil)
        try await writing { try await $0.execute(statement) }
    }

    package func finishPush(objectId: String, status: StoredPush.Status, at time: Timestamp) async throws {
        let statement = pushStatements.finish(objectId: objectId, status: status.rawValue, at: time)
        try await writing { try await $0.execute(statement) }
    }

    package func push(objectId: String) async throws -> StoredPush? {
        let statement = pushStatements.byObjectId(objectId)
        return try await reading { try await $0.rows(statement).compactMap(Self.push).first }
    }

    package func pushes(statuses: [StoredPush.Status], limit: Int) async throws -> [StoredPush] {
        guard !statuses.isEmpty else { return [] }
        let statement = pushStatements.list(statuses: statuses.map(\.rawValue), limit: limit)
        return try await reading { try await $0.rows(statement).compactMap(Self.push) }
    }

    package func cancelPush(serial: Int64, at time: Timestamp) async throws -> Bool {
        let statement = pushStatements.cancel(serial: serial, at: time)
        return try await writing { try await !$0.rows(statement).isEmpty }
    }

    /// A row in ``PushStatements/columns``' order; `nil` for one that cannot be read.
    static func push(_ row: [SQLValue]) -> StoredPush? {
        guard row.count >= 13, let objectId = row[0].text, let serial = row[1].integer, let status = row[2].text.flatMap(StoredPush.Status.init(rawValue:)),
            let request = row[3].text, let pushTime = row[4].integer, let sent = row[8].integer, let failed = row[9].integer,
            let invalid = row[10].integer, let created = row[11].integer, let updated = row[12].integer
        else { return nil }
        return StoredPush(
            objectId: objectId, serial: serial, status: status, request: request, pushTime: Timestamp(millisecondsSince1970: pushTime),
            expiresAt: row[5].integer.map(Timestamp.init(millisecondsSince1970:)), requestId: row[6].text, cursor: row[7].text,
            sent: Int(sent), failed: Int(failed), invalid: Int(invalid), createdAt: Timestamp(millisecondsSince1970: created),
            updatedAt: Timestamp(millisecondsSince1970: updated)
        )
    }
}
