public import CirrusModel

/// The bookkeeping of the migrations (``SystemSchema``): which were applied, and recording one.
public struct MigrationStatements: Sendable {
    public let dialect: any SQLDialect

    public init(dialect: any SQLDialect) {
        self.dialect = dialect
    }

    private var table: String { dialect.quote(SystemSchema.migrationsTable) }

    /// Creates the migrations table if missing.
    public var bootstrap: SQLFragment { SQLFragment(SystemSchema.bootstrap(dialect)) }

    /// The names of the migrations applied.
    public var applied: SQLFragment { "SELECT \"name\" FROM \(raw: table)" }

    /// Records that the migration `name` was applied at `time`.
    public func record(_ name: String, at time: Timestamp) -> SQLFragment {
        "INSERT INTO \(raw: table) (\"name\", \"applied_at\") VALUES (\(bind: .text(name)), \(bind: .int(time.millisecondsSince1970)))"
    }
}

/// The savepoint each command of a batch runs in, so that its failure undoes its writes and no others.
public enum SavepointStatements {
    public static let begin: SQLFragment = "SAVEPOINT cirrus_command"
    public static let release: SQLFragment = "RELEASE SAVEPOINT cirrus_command"
    public static let rollback: SQLFragment = "ROLLBACK TO SAVEPOINT cirrus_command"
}
