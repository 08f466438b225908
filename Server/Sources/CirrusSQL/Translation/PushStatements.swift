package import CirrusModel

/// The statements over the pushes table.
package struct PushStatements: Sendable {
    package let dialect: any SQLDialect

    package init(dialect: any SQLDialect) {
        self.dialect = dialect
    }

    private var table: String { dialect.quote(SystemSchema.pushesTable) }

    /// The columns every read returns, in ``StoredPush``'s order.
    static let columns = "\"object_id\", \"serial\", \"status\", \"request\", \"push_time\", \"expires_at\", \"request_id\", \"cursor\", "
        + "\"sent\", \"failed\", \"invalid\", \"created_at\", \"updated_at\""

    private static func time(_ timestamp: Timestamp?) -> SQLValue {
        timestamp.map { .int($0.millisecondsSince1970) } ?? .null
    }

    /// The push with `requestId` created at or after `since`, if any.
    package func withRequestId(_ requestId: String, since: Timestamp) -> SQLFragment {
        "SELECT \(raw: Self.columns) FROM \(raw: table) WHERE \"request_id\" = \(bind: .text(requestId)) "
            + "AND \"created_at\" >= \(bind: .int(since.millisecondsSince1970)) ORDER BY \"serial\" LIMIT 1"
    }

    /// A push's columns as written by ``insert(_:)``.
    package struct Row: Sendable {
        package var objectId: String
        package var status: String
        package var request: String
        package var pushTime: Timestamp
        package var expiresAt: Timestamp?
        package var requestId: String?
        package var createdAt: Timestamp

        package init(objectId: String, status: String, request: String, pushTime: Timestamp, expiresAt: Timestamp?, requestId: String?, createdAt: Timestamp) {
            self.objectId = objectId
            self.status = status
            self.request = request
            self.pushTime = pushTime
            self.expiresAt = expiresAt
            self.requestId = requestId
            self.createdAt = createdAt
        }
    }

    /// Adds a push (no page sent yet); returns it as stored.
    package func insert(_ row: Row) -> SQLFragment {
        let values: [SQLValue] = [
            .text(row.objectId), .text(row.status), .text(row.request), .int(row.pushTime.millisecondsSince1970), Self.time(row.expiresAt),
            row.requestId.map(SQLValue.text) ?? .null, .int(row.createdAt.millisecondsSince1970), .int(row.createdAt.millisecondsSince1970),
        ]
        let list = values.map { "\(bind: $0)" as SQLFragment }.joined(separator: ", ")
        return "INSERT INTO \(raw: table) (\"object_id\", \"status\", \"request\", \"push_time\", \"expires_at\", \"request_id\", \"created_at\", "
            + "\"updated_at\", \"sent\", \"failed\", \"invalid\") VALUES (" + list + ", 0, 0, 0) RETURNING \(raw: Self.columns)"
    }

    /// Takes the oldest due push (scheduled, or sending with its lease lapsed), skipping one another instance is
    /// taking, and holds it until `leaseUntil`.
    package func claim(now: Timestamp, leaseUntil: Timestamp) -> SQLFragment {
        let locking = dialect.rowLockClause.map { " \($0) SKIP LOCKED" } ?? ""
        let now = SQLValue.int(now.millisecondsSince1970)
        return "UPDATE \(raw: table) SET \"status\" = 'sending', \"lease_until\" = \(bind: .int(leaseUntil.millisecondsSince1970)), "
            + "\"updated_at\" = \(bind: now) WHERE \"serial\" = (SELECT \"p\".\"serial\" FROM \(raw: table) AS \"p\" "
            + "WHERE \"p\".\"status\" IN ('scheduled', 'sending') AND \"p\".\"push_time\" <= \(bind: now) "
            + "AND (\"p\".\"lease_until\" IS NULL OR \"p\".\"lease_until\" < \(bind: now)) ORDER BY \"p\".\"push_time\", \"p\".\"serial\" LIMIT 1\(raw: locking)) "
            + "RETURNING \(raw: Self.columns)"
    }

    /// Adds a page's counts, moves the cursor and renews the lease.
    package func recordPage(objectId: String, cursor: String, sent: Int, failed: Int, invalid: Int, leaseUntil: Timestamp) -> SQLFragment {
        "UPDATE \(raw: table) SET \"cursor\" = \(bind: .text(cursor)), \"sent\" = \"sent\" + \(bind: .int(Int64(sent))), "
            + "\"failed\" = \"failed\" + \(bind: .int(Int64(failed))), \"invalid\" = \"invalid\" + \(bind: .int(Int64(invalid))), "
            + "\"lease_until\" = \(bind: .int(leaseUntil.millisecondsSince1970)), \"updated_at\" = \(bind: .int(Timestamp.now().millisecondsSince1970)) "
            + "WHERE \"object_id\" = \(bind: .text(objectId))"
    }

    /// Ends a push.
    package func finish(objectId: String, status: String, at time: Timestamp) -> SQLFragment {
        "UPDATE \(raw: table) SET \"status\" = \(bind: .text(status)), \"lease_until\" = NULL, \"updated_at\" = \(bind: .int(time.millisecondsSince1970)) "
            + "WHERE \"object_id\" = \(bind: .text(objectId))"
    }

    /// One push by its objectId.
    package func byObjectId(_ objectId: String) -> SQLFragment {
        "SELECT \(raw: Self.columns) FROM \(raw: table) WHERE \"object_id\" = \(bind: .text(objectId))"
    }

    /// Pushes in `statuses`, newest first.
    package func list(statuses: [String], limit: Int) -> SQLFragment {
        let list = statuses.map { "\(bind: .text($0))" as SQLFragment }.joined(separator: ", ")
        return "SELECT \(raw: Self.columns) FROM \(raw: table) WHERE \"status\" IN (" + list + ") ORDER BY \"serial\" DESC "
            + "LIMIT \(bind: .int(Int64(limit)))"
    }

    /// Cancels a scheduled push by its serial; returns a row when it did.
    package func cancel(serial: Int64, at time: Timestamp) -> SQLFragment {
        "UPDATE \(raw: table) SET \"status\" = 'cancelled', \"updated_at\" = \(bind: .int(time.millisecondsSince1970)) "
            + "WHERE \"serial\" = \(bind: .int(serial)) AND \"status\" = 'scheduled' RETURNING \"serial\""
    }
}
