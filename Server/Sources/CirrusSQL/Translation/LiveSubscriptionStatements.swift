package import CirrusModel

/// The statements over LiveQuery's subscriptions table.
package struct LiveSubscriptionStatements: Sendable {
    package let dialect: any SQLDialect

    package init(dialect: any SQLDialect) {
        self.dialect = dialect
    }

    private var table: String { dialect.quote(SystemSchema.liveSubscriptionsTable) }

    /// Inserts or replaces a subscription; `keys` is a JSON array's text or `nil`.
    package func save(
        queryId: String, clientId: String, className: String, query: String, keys: String?, returnACL: Bool, sessionToken: String?,
        expiresAt: Timestamp
    ) -> SQLFragment {
        "INSERT INTO \(raw: table) (\"query_id\", \"client_id\", \"class_name\", \"query\", \"keys\", \"return_acl\", \"session_token\", "
            + "\"expires_at\") VALUES (\(bind: .text(queryId)), \(bind: .text(clientId)), \(bind: .text(className)), \(bind: .text(query)), "
            + "\(bind: keys.map(SQLValue.text) ?? .null), \(bind: .int(returnACL ? 1 : 0)), \(bind: sessionToken.map(SQLValue.text) ?? .null), "
            + "\(bind: .int(expiresAt.millisecondsSince1970))) ON CONFLICT (\"query_id\") DO UPDATE SET \"client_id\" = excluded.\"client_id\", "
            + "\"class_name\" = excluded.\"class_name\", \"query\" = excluded.\"query\", \"keys\" = excluded.\"keys\", "
            + "\"return_acl\" = excluded.\"return_acl\", \"session_token\" = excluded.\"session_token\", \"expires_at\" = excluded.\"expires_at\""
    }

    /// Removes a client's subscriptions that lapsed before `now`.
    package func removeLapsed(clientId: String, now: Timestamp) -> SQLFragment {
        "DELETE FROM \(raw: table) WHERE \"client_id\" = \(bind: .text(clientId)) AND \"expires_at\" < \(bind: .int(now.millisecondsSince1970))"
    }

    /// Removes a client's subscription, returning its id when there was one.
    package func delete(queryId: String, clientId: String) -> SQLFragment {
        "DELETE FROM \(raw: table) WHERE \"query_id\" = \(bind: .text(queryId)) AND \"client_id\" = \(bind: .text(clientId)) RETURNING \"query_id\""
    }

    /// Columns: query_id, client_id, class_name, query, keys, return_acl, session_token, expires_at.
    package func list(clientId: String, now: Timestamp) -> SQLFragment {
        "SELECT \"query_id\", \"client_id\", \"class_name\", \"query\", \"keys\", \"return_acl\", \"session_token\", \"expires_at\" FROM \(raw: table) "
            + "WHERE \"client_id\" = \(bind: .text(clientId)) AND \"expires_at\" >= \(bind: .int(now.millisecondsSince1970)) ORDER BY \"query_id\""
    }

    /// Moves a subscription's lapse, returning its id when there was one.
    package func renew(queryId: String, clientId: String, until expiresAt: Timestamp) -> SQLFragment {
        "UPDATE \(raw: table) SET \"expires_at\" = \(bind: .int(expiresAt.millisecondsSince1970)) WHERE \"query_id\" = \(bind: .text(queryId)) "
            + "AND \"client_id\" = \(bind: .text(clientId)) RETURNING \"query_id\""
    }
}
