import CirrusModel

/// The system tables and their named, ordered migrations, per dialect.
package enum SystemSchema {
    package static let migrationsTable = "_cirrus_migrations"
    package static let classesTable = "_cirrus_classes"
    package static let fieldsTable = "_cirrus_fields"
    package static let relationsTable = "_cirrus_relations"
    package static let credentialsTable = "_cirrus_credentials"
    package static let sessionsTable = "_cirrus_sessions"
    package static let codesTable = "_cirrus_codes"
    package static let sendsTable = "_cirrus_sends"
    /// Third-party accounts (`authData.<platform>`) and the users they are linked to, unique per platform and id.
    package static let authLinksTable = "_cirrus_auth_links"
    /// LiveQuery subscriptions, by query id and client.
    package static let liveSubscriptionsTable = "_cirrus_live_subscriptions"
    /// Cloud code's after-hook calls still to deliver, queued by the writes that owe them.
    package static let hookCallsTable = "_cirrus_hook_calls"
    package static let cloudRegistrationsTable = "_cirrus_cloud_registrations"
    package static let jobRunsTable = "_cirrus_job_runs"
    package static let pushesTable = "_cirrus_pushes"
    /// The statuses in their owners' inboxes (LeanCloud's status system), and the last number each inbox handed out.
    package static let inboxesTable = "_cirrus_inboxes"
    package static let inboxCountersTable = "_cirrus_inbox_counters"

    /// One named step; applied once, in order, inside a transaction.
    package struct Migration: Sendable {
        package let name: String
        package let statements: [String]
    }

    /// The statement creating the migrations table itself.
    package static func bootstrap(_ dialect: any SQLDialect) -> String {
        "CREATE TABLE IF NOT EXISTS \(dialect.quote(migrationsTable)) (\"name\" TEXT PRIMARY KEY, \"applied_at\" \(dialect.integerColumnType) NOT NULL)"
    }

    /// Every migration, oldest first.
    package static func migrations(_ dialect: any SQLDialect) -> [Migration] {
        let list = [
            Migration(name: "0001_schema_registry", statements: [
                "CREATE TABLE \(dialect.quote(classesTable)) (\"name\" TEXT PRIMARY KEY, \"table_name\" TEXT NOT NULL UNIQUE, "
                    + "\"created_at\" \(dialect.integerColumnType) NOT NULL)",
                "CREATE TABLE \(dialect.quote(fieldsTable)) (\"class_name\" TEXT NOT NULL, \"field\" TEXT NOT NULL, "
                    + "\"type\" TEXT NOT NULL, PRIMARY KEY (\"class_name\", \"field\"))",
            ]),
            Migration(name: "0002_relations", statements: [
                "CREATE TABLE \(dialect.quote(relationsTable)) (\"owner_class\" TEXT NOT NULL, \"field\" TEXT NOT NULL, "
                    + "\"owner_id\" TEXT NOT NULL, \"target_class\" TEXT NOT NULL, \"target_id\" TEXT NOT NULL, "
                    + "PRIMARY KEY (\"owner_class\", \"field\", \"owner_id\", \"target_id\"))",
                "CREATE INDEX \"_cirrus_relations_target\" ON \(dialect.quote(relationsTable)) (\"owner_class\", \"field\", \"target_id\")",
            ]),
            accounts(dialect),
            codes(dialect),
            Migration(name: "0006_class_options", statements: [
                "ALTER TABLE \(dialect.quote(classesTable)) ADD COLUMN \"options\" TEXT",
            ]),
            authLinks(dialect),
            Migration(name: "0013_live_subscriptions", statements: [
                "CREATE TABLE \(dialect.quote(liveSubscriptionsTable)) (\"query_id\" TEXT PRIMARY KEY, \"client_id\" TEXT NOT NULL, "
                    + "\"class_name\" TEXT NOT NULL, \"query\" TEXT NOT NULL, \"keys\" TEXT, \"return_acl\" \(dialect.integerColumnType) NOT NULL, "
                    + "\"session_token\" TEXT, \"expires_at\" \(dialect.integerColumnType) NOT NULL)",
                "CREATE INDEX \"_cirrus_live_subscriptions_client\" ON \(dialect.quote(liveSubscriptionsTable)) (\"client_id\")",
            ]),
            Migration(name: "0014_hook_calls", statements: [
                "CREATE TABLE \(dialect.quote(hookCallsTable)) (\"id\" \(dialect.serialPrimaryKey), \"hook\" TEXT NOT NULL, "
                    + "\"class_name\" TEXT NOT NULL, \"object_id\" TEXT NOT NULL, \"object\" TEXT NOT NULL, \"user_id\" TEXT, "
                    + "\"attempts\" \(dialect.integerColumnType) NOT NULL, \"due_at\" \(dialect.integerColumnType) NOT NULL)",
                "CREATE INDEX \"_cirrus_hook_calls_object\" ON \(dialect.quote(hookCallsTable)) (\"class_name\", \"object_id\", \"id\")",
                "CREATE INDEX \"_cirrus_hook_calls_due\" ON \(dialect.quote(hookCallsTable)) (\"due_at\")",
            ]),
            Migration(name: "0015_cloud_registrations", statements: [
                "CREATE TABLE \(dialect.quote(cloudRegistrationsTable)) (\"kind\" TEXT NOT NULL, \"name\" TEXT NOT NULL, "
                    + "\"definition\" TEXT NOT NULL, \"due_at\" \(dialect.integerColumnType), PRIMARY KEY (\"kind\", \"name\"))",
                "CREATE TABLE \(dialect.quote(jobRunsTable)) (\"id\" \(dialect.serialPrimaryKey), \"job\" TEXT NOT NULL, "
                    + "\"scheduled_at\" \(dialect.integerColumnType) NOT NULL, \"started_at\" \(dialect.integerColumnType) NOT NULL, "
                    + "\"finished_at\" \(dialect.integerColumnType), \"succeeded\" \(dialect.integerColumnType), \"detail\" TEXT)",
                "CREATE INDEX \"_cirrus_job_runs_job\" ON \(dialect.quote(jobRunsTable)) (\"job\", \"id\")",
            ]),
            Migration(name: "0017_pushes", statements: [
                "CREATE TABLE \(dialect.quote(pushesTable)) (\"serial\" \(dialect.serialPrimaryKey), \"object_id\" TEXT NOT NULL UNIQUE, "
                    + "\"status\" TEXT NOT NULL, \"request\" TEXT NOT NULL, \"push_time\" \(dialect.integerColumnType) NOT NULL, "
                    + "\"expires_at\" \(dialect.integerColumnType), \"request_id\" TEXT, \"cursor\" TEXT, "
                    + "\"sent\" \(dialect.integerColumnType) NOT NULL, \"failed\" \(dialect.integerColumnType) NOT NULL, "
                    + "\"invalid\" \(dialect.integerColumnType) NOT NULL, \"lease_until\" \(dialect.integerColumnType), "
                    + "\"created_at\" \(dialect.integerColumnType) NOT NULL, \"updated_at\" \(dialect.integerColumnType) NOT NULL)",
                "CREATE INDEX \"_cirrus_pushes_due\" ON \(dialect.quote(pushesTable)) (\"status\", \"push_time\")",
                "CREATE INDEX \"_cirrus_pushes_request\" ON \(dialect.quote(pushesTable)) (\"request_id\", \"created_at\")",
            ]),
            Migration(name: "0018_inboxes", statements: [
                "CREATE TABLE \(dialect.quote(inboxesTable)) (\"owner_class\" TEXT NOT NULL, \"owner_id\" TEXT NOT NULL, "
                    + "\"inbox_type\" TEXT NOT NULL, \"message_id\" \(dialect.integerColumnType) NOT NULL, \"status_id\" TEXT NOT NULL, "
                    + "\"unread\" \(dialect.integerColumnType) NOT NULL, PRIMARY KEY (\"owner_class\", \"owner_id\", \"inbox_type\", \"message_id\"))",
                "CREATE INDEX \"_cirrus_inboxes_status\" ON \(dialect.quote(inboxesTable)) (\"status_id\")",
                "CREATE TABLE \(dialect.quote(inboxCountersTable)) (\"owner_class\" TEXT NOT NULL, \"owner_id\" TEXT NOT NULL, "
                    + "\"inbox_type\" TEXT NOT NULL, \"last_id\" \(dialect.integerColumnType) NOT NULL, "
                    + "PRIMARY KEY (\"owner_class\", \"owner_id\", \"inbox_type\"))",
            ]),
        ]
        // The dialect's own functions, each at its place in the order of names.
        return (list + dialect.dialectMigrations).sorted { $0.name < $1.name }
    }

    /// One row per linked third-party account: the unique index on `(platform, uid)` is what makes an account
    /// belong to one user, however many sign-ups race; `(user_id, platform)` is the user's entry of that platform.
    /// Filled from existing users by ``tableMigrations(_:)``.
    static func authLinks(_ dialect: any SQLDialect) -> Migration {
        Migration(name: "0008_auth_links", statements: [
            "CREATE TABLE \(dialect.quote(authLinksTable)) (\"user_id\" TEXT NOT NULL, \"platform\" TEXT NOT NULL, \"uid\" TEXT NOT NULL, "
                + "PRIMARY KEY (\"user_id\", \"platform\"))",
            "CREATE UNIQUE INDEX \(dialect.quote(uniqueIndexName(table: authLinksTable, field: "authData"))) ON \(dialect.quote(authLinksTable)) "
                + "(\"platform\", \"uid\")",
        ])
    }

    /// A named migration of the `_User` table, for databases whose table predates it; a table created later has its
    /// current shape from ``createObjectTable(_:table:className:)``. The stores apply it once, in the migrations'
    /// transaction, after the system migrations; one whose ``blockers`` query returns rows is skipped and tried again
    /// at the next start.
    package struct TableMigration: Sendable {
        package let name: String
        /// The system class whose table it changes.
        package var className = "_User"
        /// A query over the table returning what keeps the migration from applying (nothing: it applies).
        package let blockers: (@Sendable (_ table: String) -> String)?
        package let statements: @Sendable (_ table: String) -> [String]
    }

    /// The migrations of existing system-class tables (`_User`, `_Installation`), oldest first.
    package static func tableMigrations(_ dialect: any SQLDialect) -> [TableMigration] {
        [
            TableMigration(name: "0009_auth_links_from_users", blockers: nil) { table in [fillAuthLinks(dialect, userTable: table)] },
            TableMigration(name: "0010_email_unique_ignoring_case", blockers: { table in caseDuplicateEmails(dialect, userTable: table, limit: 10) }) {
                table in [lowerEmailIndex(dialect, userTable: table)]
            },
            // Installations imported or written before their ids were unique: applied once no two share one (until
            // then, each device's next save removes its duplicates).
            TableMigration(
                name: "0016_installation_ids_unique", className: "_Installation",
                blockers: { table in duplicateValues(dialect, table: table, fields: uniqueFields(of: "_Installation")) }
            ) { table in uniqueFields(of: "_Installation").map { uniqueIndex(dialect, table: table, field: $0) } },
        ]
    }

    /// A query listing a value that two objects of `table` share in one of `fields` (nothing when there is none).
    static func duplicateValues(_ dialect: any SQLDialect, table: String, fields: [String]) -> String {
        fields.map { field in
            let value = dialect.render(dialect.comparedExpressions(dialect.target(column: "data", path: FieldPath(field: field)), textual: true)[0]).sql
            return "SELECT * FROM (SELECT \(value) AS \"value\" FROM \(dialect.quote(table)) WHERE \(value) IS NOT NULL "
                + "GROUP BY \(value) HAVING COUNT(*) > 1 LIMIT 1) AS \"duplicate_\(field)\""
        }.joined(separator: " UNION ALL ")
    }

    /// Links every account existing users hold, oldest user first: when two users hold one account (which only an
    /// older Cirrus allowed), the older keeps it and the other's entry stays in its `authData`, unlinked.
    static func fillAuthLinks(_ dialect: any SQLDialect, userTable: String) -> String {
        let links = dialect.quote(authLinksTable)
        let select = dialect.linkedAccounts(ofUsersIn: dialect.quote(userTable))
        return "INSERT INTO \(links) (\"user_id\", \"platform\", \"uid\") \(select) ORDER BY \"u\".\"created_at\", \"u\".\"id\" ON CONFLICT DO NOTHING"
    }

    /// A user's e-mail address lower-cased, ASCII letters only on both stores (PostgreSQL's `lower` under the `C`
    /// collation, SQLite's built-in one): the expression of the case-insensitive unique index, and of log-ins by e-mail.
    package static func lowerEmail(_ dialect: any SQLDialect) -> String {
        dialect.render(dialect.asciiLowercased(dialect.stringValue(dialect.target(column: "data", path: FieldPath(field: "email"))))).sql
    }

    /// The unique index on the lower-cased e-mail: `A@x.com` and `a@x.com` are one address. It sits beside the exact
    /// unique index, which queries for an address use.
    static func lowerEmailIndex(_ dialect: any SQLDialect, userTable: String) -> String {
        let name = dialect.quote(lowerEmailIndexName(userTable: userTable))
        return "CREATE UNIQUE INDEX IF NOT EXISTS \(name) ON \(dialect.quote(userTable)) ((\(lowerEmail(dialect))))"
    }

    /// `<table>_lower_unique_email`: read back as `email` by ``uniqueField(inMessage:)``.
    package static func lowerEmailIndexName(userTable: String) -> String {
        userTable + "_lower" + "_unique_email"
    }

    /// Up to `limit` lower-cased addresses that several users hold, spelled differently (a database from before
    /// e-mail uniqueness ignored case).
    package static func caseDuplicateEmails(_ dialect: any SQLDialect, userTable: String, limit: Int) -> String {
        let lower = lowerEmail(dialect)
        return "SELECT \(lower) FROM \(dialect.quote(userTable)) WHERE \(lower) IS NOT NULL GROUP BY \(lower) HAVING COUNT(*) > 1 "
            + "ORDER BY 1 LIMIT \(limit)"
    }

    /// Verification codes and link tokens, and the sends that rate limits count.
    static func codes(_ dialect: any SQLDialect) -> Migration {
        Migration(name: "0005_codes", statements: [
            "CREATE TABLE \(dialect.quote(codesTable)) (\"purpose\" TEXT NOT NULL, \"target\" TEXT NOT NULL, \"code\" TEXT NOT NULL, "
                + "\"user_id\" TEXT, \"created_at\" \(dialect.integerColumnType) NOT NULL, \"expires_at\" \(dialect.integerColumnType) NOT NULL, "
                + "\"attempts\" \(dialect.integerColumnType) NOT NULL DEFAULT 0, \"data\" TEXT, PRIMARY KEY (\"purpose\", \"target\"))",
            "CREATE INDEX \"_cirrus_codes_code\" ON \(dialect.quote(codesTable)) (\"purpose\", \"code\")",
            "CREATE TABLE \(dialect.quote(sendsTable)) (\"target\" TEXT NOT NULL, \"sent_at\" \(dialect.integerColumnType) NOT NULL)",
            "CREATE INDEX \"_cirrus_sends_target\" ON \(dialect.quote(sendsTable)) (\"target\", \"sent_at\")",
        ])
    }

    /// Passwords, lock-out state and sessions, kept beside the `_User` objects and never in them.
    static func accounts(_ dialect: any SQLDialect) -> Migration {
        Migration(name: "0004_accounts", statements: [
            "CREATE TABLE \(dialect.quote(credentialsTable)) (\"user_id\" TEXT PRIMARY KEY, \"password\" TEXT, "
                + "\"failures\" TEXT NOT NULL DEFAULT '[]', \"locked_until\" \(dialect.integerColumnType))",
            "CREATE TABLE \(dialect.quote(sessionsTable)) (\"token\" TEXT PRIMARY KEY, \"session_id\" TEXT NOT NULL UNIQUE, "
                + "\"user_id\" TEXT NOT NULL, \"kind\" TEXT NOT NULL, \"created_at\" \(dialect.integerColumnType) NOT NULL, "
                + "\"expires_at\" \(dialect.integerColumnType), \"installation_id\" TEXT, \"created_with\" TEXT)",
            "CREATE INDEX \"_cirrus_sessions_user\" ON \(dialect.quote(sessionsTable)) (\"user_id\", \"kind\")",
            // One stable (LeanCloud / Bmob) token per user, even when two log-ins race.
            "CREATE UNIQUE INDEX \"_cirrus_sessions_stable\" ON \(dialect.quote(sessionsTable)) (\"user_id\") WHERE \"kind\" = 'stable'",
        ])
    }

    /// Fields whose values are unique within a system class: a user's log-in names, a role's name, a file's key.
    /// Objects without the field are not constrained.
    package static func uniqueFields(of className: String) -> [String] {
        switch className {
        case "_User": ["username", "email", "mobilePhoneNumber"]
        case "_Role": ["name"]
        // Downloads find a file's row by its key.
        case "_File": ["key"]
        // One installation per device.
        case "_Installation": ["installationId", "deviceToken"]
        default: []
        }
    }

    /// The name of the unique index on `field`; ``uniqueField(inIndexName:)`` reads the field back from it.
    package static func uniqueIndexName(table: String, field: String) -> String {
        table + "_unique_" + field
    }

    /// The field of a unique index named by ``uniqueIndexName(table:field:)``, found in a database message.
    package static func uniqueField(inMessage message: String) -> String? {
        // SQLite names the columns of a column index, not the index: `UNIQUE constraint failed: _cirrus_auth_links.platform, …`.
        if message.contains(authLinksTable) { return "authData" }
        guard let marker = message.firstRange(of: "_unique_") else { return nil }
        let field = message[marker.upperBound...].prefix { $0.isLetter || $0.isNumber || $0 == "_" }
        return field.isEmpty ? nil : String(field)
    }

    /// The unique index on a system class's field (objects without the field are not constrained).
    static func uniqueIndex(_ dialect: any SQLDialect, table: String, field: String) -> String {
        let value = dialect.comparedExpressions(dialect.target(column: "data", path: FieldPath(field: field)), textual: true)[0]
        return "CREATE UNIQUE INDEX IF NOT EXISTS \(dialect.quote(uniqueIndexName(table: table, field: field))) ON \(dialect.quote(table)) "
            + "((\(dialect.render(value).sql)))"
    }

    /// The DDL creating one class's table and its default indexes, and the unique indexes of a system class.
    package static func createObjectTable(_ dialect: any SQLDialect, table: String, className: String = "") -> [String] {
        let quoted = dialect.quote(table)
        let unique = uniqueFields(of: className).map { uniqueIndex(dialect, table: table, field: $0) }
        return [
            "CREATE TABLE IF NOT EXISTS \(quoted) (\"id\" TEXT PRIMARY KEY, \"created_at\" \(dialect.integerColumnType) NOT NULL, "
                + "\"updated_at\" \(dialect.integerColumnType) NOT NULL, \"acl\" \(dialect.documentColumnType), "
                + "\"data\" \(dialect.documentColumnType) NOT NULL)",
            "CREATE INDEX IF NOT EXISTS \(dialect.quote(SQLIdentifier.fitting(table + "_created_at"))) ON \(quoted) (\"created_at\")",
            "CREATE INDEX IF NOT EXISTS \(dialect.quote(SQLIdentifier.fitting(table + "_updated_at"))) ON \(quoted) (\"updated_at\")",
        ] + unique + (className == "_User" ? [lowerEmailIndex(dialect, userTable: table)] : [])
    }

    /// The table name for a class: `o_` and the lower-cased name, suffixed when that name is taken
    /// by a class whose name differs only in case (SQLite table names ignore case), and shortened with a hash of
    /// the whole when longer than PostgreSQL keeps (``SQLIdentifier``).
    package static func tableName(for className: String, taken: Set<String>) -> String {
        let base = "o_" + className.lowercased()
        var candidate = SQLIdentifier.fitting(base)
        var suffix = 2
        while taken.contains(candidate) {
            candidate = SQLIdentifier.fitting(base + "_\(suffix)")
            suffix += 1
        }
        return candidate
    }
}
