import CirrusSQL
package import CirrusStorage

/// The statuses' inboxes in their tables.
extension SQLStore {
    private var inboxStatements: InboxStatements { InboxStatements(dialect: dialect) }

    private static func address(_ inbox: InboxKey) -> InboxStatements.Inbox {
        (inbox.owner.className, inbox.owner.objectId, inbox.type)
    }

    package func deliver(statusId: String, to owners: [InboxOwner], type: String) async throws {
        let statements = inboxStatements
        let distinct = Array(Set(owners)).sorted()
        guard !distinct.isEmpty else { return }
        try await writing { session in
            for start in stride(from: 0, to: distinct.count, by: InboxStatements.deliveryChunk) {
                let chunk = Array(distinct[start..<min(start + InboxStatements.deliveryChunk, distinct.count)])
                let numbered = try await session.rows(statements.takeNumbers(for: chunk.map { ($0.className, $0.objectId) }, type: type)).compactMap { row -> (InboxOwner, Int64)? in
                    guard row.count == 3, let className = row[0].text, let objectId = row[1].text, let number = row[2].integer else { return nil }
                    return (InboxOwner(className: className, objectId: objectId), number)
                }
                guard numbered.count == chunk.count else { throw StorageError.database("an inbox number was not taken") }
                try await session.execute(statements.insert(statusId: statusId, type: type, numbered: numbered.map { (owner: ($0.0.className, $0.0.objectId), messageId: $0.1) }))
            }
        }
    }

    package func inbox(_ inbox: InboxKey, sinceId: Int64, maxId: Int64, limit: Int) async throws -> [InboxEntry] {
        let statement = inboxStatements.entries(Self.address(inbox), sinceId: sinceId, maxId: maxId, limit: limit)
        return try await reading { session in
            try await session.rows(statement).compactMap { row in
                guard row.count == 3, let number = row[0].integer, let statusId = row[1].text, let unread = row[2].integer else { return nil }
                return InboxEntry(messageId: number, statusId: statusId, unread: unread != 0)
            }
        }
    }

    package func inboxCount(_ inbox: InboxKey) async throws -> (total: Int, unread: Int) {
        let statement = inboxStatements.count(Self.address(inbox))
        return try await reading { session in
            let row = try await session.rows(statement).first
            return (Int(row?[0].integer ?? 0), Int(row?[1].integer ?? 0))
        }
    }

    package func markInboxRead(_ inbox: InboxKey) async throws {
        let statement = inboxStatements.markRead(Self.address(inbox))
        try await writing { try await $0.execute(statement) }
    }

    package func removeInboxEntry(_ inbox: InboxKey, messageId: Int64) async throws -> Bool {
        let statement = inboxStatements.remove(Self.address(inbox), messageId: messageId)
        return try await writing { try await !$0.rows(statement).isEmpty }
    }
}
