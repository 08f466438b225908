package import CirrusModel

/// The change log of instances sharing one PostgreSQL database: each write transaction appends its object changes to
/// `_cirrus_change_log` and, in the same statement, notifies the others with a payload that names only the schema
/// (whatever the objects' size); every instance then reads the rows it has not seen, in sequence order
/// (`PostgresChangeLogReader`), and rows older than the retention window are pruned.
extension PostgresDialect {
    package static let changeLogTableName = "_cirrus_change_log"

    /// The table: one row per object change; `before` and `after` are the objects as JSON text.
    static let changeLogTable = SystemSchema.Migration(name: "0012_change_log", statements: [
        "CREATE TABLE \"\(changeLogTableName)\" (\"seq\" BIGSERIAL PRIMARY KEY, \"committed_at\" BIGINT NOT NULL, "
            + "\"kind\" TEXT NOT NULL, \"class_name\" TEXT NOT NULL, \"object_id\" TEXT NOT NULL, \"before\" TEXT, \"after\" TEXT, "
            + "\"updated_keys\" TEXT NOT NULL)",
        "CREATE INDEX \"_cirrus_change_log_committed_at\" ON \"\(changeLogTableName)\" (\"committed_at\")",
    ])

    /// One change to append: its kind, class, object id, images and updated keys (a JSON array), as text.
    package struct ChangeLogRow: Sendable {
        package var kind: String
        package var className: String
        package var objectId: String
        package var before: String?
        package var after: String?
        package var updatedKeys: String

        package init(kind: String, className: String, objectId: String, before: String?, after: String?, updatedKeys: String) {
            self.kind = kind
            self.className = className
            self.objectId = objectId
            self.before = before
            self.after = after
            self.updatedKeys = updatedKeys
        }
    }

    /// Appends `rows` and sends `notice` on `channel` (prefixed with the schema, as ``notify(_:_:)``), in one
    /// statement: the notice reaches the listeners when, and only if, the transaction commits.
    package static func appendChanges(_ rows: [ChangeLogRow], at time: Timestamp, notifying channel: String, notice: String) -> SQLFragment {
        let values: [SQLFragment] = rows.map { row in
            "(\(bind: .int(time.millisecondsSince1970)), \(bind: .text(row.kind)), \(bind: .text(row.className)), "
                + "\(bind: .text(row.objectId)), \(bind: row.before.map(SQLValue.text) ?? .null), \(bind: row.after.map(SQLValue.text) ?? .null), "
                + "\(bind: .text(row.updatedKeys)))"
        }
        return "WITH \"appended\" AS (INSERT INTO \"\(raw: changeLogTableName)\" (\"committed_at\", \"kind\", \"class_name\", \"object_id\", "
            + "\"before\", \"after\", \"updated_keys\") VALUES \(values.joined(separator: ", ")) RETURNING 1) "
            + "SELECT pg_notify(\(bind: .text(channel)), current_schema() || ' ' || \(bind: .text(notice))) FROM (SELECT 1) AS \"once\" "
            + "WHERE EXISTS (SELECT 1 FROM \"appended\")"
    }

    /// The rows after `sequence`, oldest first, at most `limit`: seq, kind, class, object id, before, after, updated
    /// keys, then the statement's snapshot bounds (`xmin`, `xmax`, as text) on every row.
    package static func changes(after sequence: Int64, limit: Int) -> SQLFragment {
        "SELECT \"seq\", \"kind\", \"class_name\", \"object_id\", \"before\", \"after\", \"updated_keys\", "
            + "pg_snapshot_xmin(pg_current_snapshot())::text, pg_snapshot_xmax(pg_current_snapshot())::text "
            + "FROM \"\(raw: changeLogTableName)\" WHERE \"seq\" > \(bind: .int(sequence)) ORDER BY \"seq\" LIMIT \(bind: .int(Int64(limit)))"
    }

    /// The current snapshot's bounds (`xmin`, `xmax`, as text): every transaction below `xmin` has ended.
    package static let snapshotBounds: SQLFragment =
        "SELECT pg_snapshot_xmin(pg_current_snapshot())::text, pg_snapshot_xmax(pg_current_snapshot())::text"

    /// The last sequence appended so far (0 for none).
    package static let lastChangeSequence: SQLFragment = "SELECT COALESCE(MAX(\"seq\"), 0) FROM \"_cirrus_change_log\""

    /// Removes the changes appended before `time`.
    package static func pruneChanges(before time: Timestamp) -> SQLFragment {
        "DELETE FROM \"\(raw: changeLogTableName)\" WHERE \"committed_at\" < \(bind: .int(time.millisecondsSince1970))"
    }
}
