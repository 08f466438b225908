/// The statements over the statuses' inboxes (``SystemSchema/inboxesTable``) and their counters
/// (``SystemSchema/inboxCountersTable``, the last number each inbox handed out).
package struct InboxStatements: Sendable {
    package let dialect: any SQLDialect

    package init(dialect: any SQLDialect) {
        self.dialect = dialect
    }

    private var inboxes: String { dialect.quote(SystemSchema.inboxesTable) }
    private var counters: String { dialect.quote(SystemSchema.inboxCountersTable) }

    /// The owners a delivery statement takes at most (four parameters each, below both engines' limits).
    package static let deliveryChunk = 500

    /// One inbox: its owner's class and id, and its type.
    package typealias Inbox = (ownerClass: String, ownerId: String, type: String)
    /// An inbox's owner.
    package typealias Owner = (className: String, objectId: String)

    private func owner(_ inbox: Inbox) -> SQLFragment {
        "\"owner_class\" = \(bind: .text(inbox.ownerClass)) AND \"owner_id\" = \(bind: .text(inbox.ownerId)) "
            + "AND \"inbox_type\" = \(bind: .text(inbox.type))"
    }

    /// Takes the next number of each owner's inbox (distinct owners, in their order: concurrent deliveries lock the
    /// counters in one order, so they wait for each other rather than deadlock); returns `owner_class, owner_id,
    /// last_id` per owner.
    package func takeNumbers(for owners: [Owner], type: String) -> SQLFragment {
        let rows = owners.map { owner -> SQLFragment in
            "(\(bind: .text(owner.className)), \(bind: .text(owner.objectId)), \(bind: .text(type)), 1)"
        }.joined(separator: ", ")
        return "INSERT INTO \(raw: counters) (\"owner_class\", \"owner_id\", \"inbox_type\", \"last_id\") VALUES " + rows
            + " ON CONFLICT (\"owner_class\", \"owner_id\", \"inbox_type\") DO UPDATE SET \"last_id\" = \(raw: counters).\"last_id\" + 1"
            + " RETURNING \"owner_class\", \"owner_id\", \"last_id\""
    }

    /// Adds the status to the inboxes at the numbers taken.
    package func insert(statusId: String, type: String, numbered: [(owner: Owner, messageId: Int64)]) -> SQLFragment {
        let rows = numbered.map { entry -> SQLFragment in
            "(\(bind: .text(entry.owner.className)), \(bind: .text(entry.owner.objectId)), \(bind: .text(type)), "
                + "\(bind: .int(entry.messageId)), \(bind: .text(statusId)), 1)"
        }.joined(separator: ", ")
        return "INSERT INTO \(raw: inboxes) (\"owner_class\", \"owner_id\", \"inbox_type\", \"message_id\", \"status_id\", \"unread\") VALUES " + rows
    }

    /// `message_id, status_id, unread` of an inbox's entries, newest first.
    package func entries(_ inbox: Inbox, sinceId: Int64, maxId: Int64, limit: Int) -> SQLFragment {
        var statement: SQLFragment = "SELECT \"message_id\", \"status_id\", \"unread\" FROM \(raw: inboxes) WHERE " + owner(inbox)
            + " AND \"message_id\" > \(bind: .int(sinceId))"
        if maxId > 0 { statement.append(" AND \"message_id\" <= \(bind: .int(maxId))") }
        return statement + " ORDER BY \"message_id\" DESC LIMIT \(bind: .int(Int64(limit)))"
    }

    /// `total, unread` of an inbox.
    package func count(_ inbox: Inbox) -> SQLFragment {
        "SELECT COUNT(*), COUNT(CASE WHEN \"unread\" = 1 THEN 1 END) FROM \(raw: inboxes) WHERE " + owner(inbox)
    }

    package func markRead(_ inbox: Inbox) -> SQLFragment {
        "UPDATE \(raw: inboxes) SET \"unread\" = 0 WHERE " + owner(inbox) + " AND \"unread\" = 1"
    }

    /// Removes one entry, returning its number when there was one.
    package func remove(_ inbox: Inbox, messageId: Int64) -> SQLFragment {
        "DELETE FROM \(raw: inboxes) WHERE " + owner(inbox) + " AND \"message_id\" = \(bind: .int(messageId)) RETURNING \"message_id\""
    }

    /// Takes these statuses out of every inbox (they are being deleted).
    package func remove(statusIds: [String]) -> SQLFragment {
        "DELETE FROM \(raw: inboxes) WHERE \"status_id\" IN (" + statusIds.map { SQLFragment.bind(.text($0)) }.joined(separator: ", ") + ")"
    }
}
