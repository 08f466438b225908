package import CirrusModel

/// The statements over the queue of cloud code's after-hook calls.
package struct HookCallStatements: Sendable {
    package let dialect: any SQLDialect

    package init(dialect: any SQLDialect) {
        self.dialect = dialect
    }

    private var table: String { dialect.quote(SystemSchema.hookCallsTable) }

    /// Queues a call, due at once (`dueAt`), in the transaction of the write that owes it.
    package func insert(hook: String, className: String, objectId: String, object: String, userId: String?, dueAt: Timestamp) -> SQLFragment {
        "INSERT INTO \(raw: table) (\"hook\", \"class_name\", \"object_id\", \"object\", \"user_id\", \"attempts\", \"due_at\") VALUES ("
            + "\(bind: .text(hook)), \(bind: .text(className)), \(bind: .text(objectId)), \(bind: .text(object)), "
            + "\(bind: userId.map(SQLValue.text) ?? .null), 0, \(bind: .int(dueAt.millisecondsSince1970)))"
    }

    /// Takes up to `limit` due calls, oldest first, skipping any whose object has an earlier call queued, and holds
    /// them until `leaseUntil`. Where several instances share the database, the rows another one is taking are
    /// skipped (`FOR UPDATE SKIP LOCKED`), and a call it holds keeps its object's later calls waiting.
    /// Columns: id, hook, class_name, object_id, object, user_id, attempts.
    package func claim(now: Timestamp, leaseUntil: Timestamp, limit: Int) -> SQLFragment {
        let locking = dialect.rowLockClause.map { " \($0) SKIP LOCKED" } ?? ""
        return "UPDATE \(raw: table) SET \"due_at\" = \(bind: .int(leaseUntil.millisecondsSince1970)) WHERE \"id\" IN ("
            + "SELECT \"q\".\"id\" FROM \(raw: table) AS \"q\" WHERE \"q\".\"due_at\" <= \(bind: .int(now.millisecondsSince1970)) "
            + "AND NOT EXISTS (SELECT 1 FROM \(raw: table) AS \"e\" WHERE \"e\".\"class_name\" = \"q\".\"class_name\" "
            + "AND \"e\".\"object_id\" = \"q\".\"object_id\" AND \"e\".\"id\" < \"q\".\"id\") "
            + "ORDER BY \"q\".\"id\" LIMIT \(bind: .int(Int64(limit)))\(raw: locking)) "
            + "RETURNING \"id\", \"hook\", \"class_name\", \"object_id\", \"object\", \"user_id\", \"attempts\""
    }

    /// Removes a delivered or abandoned call.
    package func finish(id: Int64) -> SQLFragment {
        "DELETE FROM \(raw: table) WHERE \"id\" = \(bind: .int(id))"
    }

    /// Puts a failed call back, due at `dueAt`.
    package func retry(id: Int64, attempts: Int, dueAt: Timestamp) -> SQLFragment {
        "UPDATE \(raw: table) SET \"attempts\" = \(bind: .int(Int64(attempts))), \"due_at\" = \(bind: .int(dueAt.millisecondsSince1970)) "
            + "WHERE \"id\" = \(bind: .int(id))"
    }
}
