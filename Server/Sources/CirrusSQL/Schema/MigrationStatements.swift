package import CirrusModel

/// The bookkeeping of the migrations (``SystemSchema``): which were applied, and recording one.
package struct MigrationStatements: Sendable {
    package let dialect: any SQLDialect

    package init(dialect: any SQLDialect) {
        self.dialect = dialect
    }

    private var table: String { dialect.quote(SystemSchema.migrationsTable) }

    /// Creates the migrations table if missing.
    package var bootstrap: SQLFragment { SQLFragment(SystemSchema.bootstrap(dialect)) }

    /// The names of the migrations applied.
    package var applied: SQLFragment { "SELECT \"name\" FROM \(raw: table)" }

    /// Records that the migration `name` was applied at `time`.
    package func record(_ name: String, at time: Timestamp) -> SQLFragment {
        "INSERT INTO \(raw: table) (\"name\", \"applied_at\") VALUES (\(bind: .text(name)), \(bind: .int(time.millisecondsSince1970)))"
    }
}

/// The savepoint each command of a batch runs in, so that its failure undoes its writes and no others.
package enum SavepointStatements {
    package static let begin: SQLFragment = "SAVEPOINT cirrus_command"
    package static let release: SQLFragment = "RELEASE SAVEPOINT cirrus_command"
    package static let rollback: SQLFragment = "ROLLBACK TO SAVEPOINT cirrus_command"
}
