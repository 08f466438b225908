package import CirrusModel

/// The statements over cloud code's registrations (Parse webhooks, scheduled jobs) and the record of the jobs' runs.
package struct CloudRegistrationStatements: Sendable {
    package let dialect: any SQLDialect

    package init(dialect: any SQLDialect) {
        self.dialect = dialect
    }

    private var table: String { dialect.quote(SystemSchema.cloudRegistrationsTable) }
    private var runs: String { dialect.quote(SystemSchema.jobRunsTable) }

    private static func time(_ timestamp: Timestamp?) -> SQLValue {
        timestamp.map { .int($0.millisecondsSince1970) } ?? .null
    }

    /// Columns: kind, name, definition, due_at.
    package func list(kind: String) -> SQLFragment {
        "SELECT \"kind\", \"name\", \"definition\", \"due_at\" FROM \(raw: table) WHERE \"kind\" = \(bind: .text(kind)) ORDER BY \"name\""
    }

    /// Adds a registration unless one of its kind and name exists; returns a row when it added one.
    package func add(kind: String, name: String, definition: String, dueAt: Timestamp?) -> SQLFragment {
        "INSERT INTO \(raw: table) (\"kind\", \"name\", \"definition\", \"due_at\") VALUES (\(bind: .text(kind)), \(bind: .text(name)), "
            + "\(bind: .text(definition)), \(bind: Self.time(dueAt))) ON CONFLICT (\"kind\", \"name\") DO NOTHING RETURNING \"name\""
    }

    /// Replaces a registration's definition and due time; returns a row when there was one.
    package func replace(kind: String, name: String, definition: String, dueAt: Timestamp?) -> SQLFragment {
        "UPDATE \(raw: table) SET \"definition\" = \(bind: .text(definition)), \"due_at\" = \(bind: Self.time(dueAt)) "
            + "WHERE \"kind\" = \(bind: .text(kind)) AND \"name\" = \(bind: .text(name)) RETURNING \"name\""
    }

    /// Removes a registration; returns a row when there was one.
    package func delete(kind: String, name: String) -> SQLFragment {
        "DELETE FROM \(raw: table) WHERE \"kind\" = \(bind: .text(kind)) AND \"name\" = \(bind: .text(name)) RETURNING \"name\""
    }

    /// Moves a job due at `due` to `next`; returns a row only for the one caller that found it still due at `due`.
    package func claim(job: String, due: Timestamp, next: Timestamp?) -> SQLFragment {
        "UPDATE \(raw: table) SET \"due_at\" = \(bind: Self.time(next)) WHERE \"kind\" = 'job' AND \"name\" = \(bind: .text(job)) "
            + "AND \"due_at\" = \(bind: .int(due.millisecondsSince1970)) RETURNING \"name\""
    }

    /// A row when the job exists.
    package func exists(job: String) -> SQLFragment {
        "SELECT \"name\" FROM \(raw: table) WHERE \"kind\" = 'job' AND \"name\" = \(bind: .text(job))"
    }

    /// Records a run as started; returns its id.
    package func startRun(job: String, scheduledAt: Timestamp, startedAt: Timestamp) -> SQLFragment {
        "INSERT INTO \(raw: runs) (\"job\", \"scheduled_at\", \"started_at\") VALUES (\(bind: .text(job)), "
            + "\(bind: .int(scheduledAt.millisecondsSince1970)), \(bind: .int(startedAt.millisecondsSince1970))) RETURNING \"id\""
    }

    /// Removes a job's runs but its `kept` newest.
    package func trimRuns(job: String, kept: Int) -> SQLFragment {
        "DELETE FROM \(raw: runs) WHERE \"job\" = \(bind: .text(job)) AND \"id\" NOT IN (SELECT \"id\" FROM \(raw: runs) "
            + "WHERE \"job\" = \(bind: .text(job)) ORDER BY \"id\" DESC LIMIT \(bind: .int(Int64(kept))))"
    }

    /// Records how a run ended.
    package func finishRun(id: Int64, succeeded: Bool, detail: String, finishedAt: Timestamp) -> SQLFragment {
        "UPDATE \(raw: runs) SET \"finished_at\" = \(bind: .int(finishedAt.millisecondsSince1970)), \"succeeded\" = \(bind: .int(succeeded ? 1 : 0)), "
            + "\"detail\" = \(bind: .text(detail)) WHERE \"id\" = \(bind: .int(id))"
    }

    /// Removes every run of a job.
    package func deleteRuns(job: String) -> SQLFragment {
        "DELETE FROM \(raw: runs) WHERE \"job\" = \(bind: .text(job))"
    }

    /// A job's runs, newest first. Columns: id, job, scheduled_at, started_at, finished_at, succeeded, detail.
    package func listRuns(job: String, limit: Int) -> SQLFragment {
        "SELECT \"id\", \"job\", \"scheduled_at\", \"started_at\", \"finished_at\", \"succeeded\", \"detail\" FROM \(raw: runs) "
            + "WHERE \"job\" = \(bind: .text(job)) ORDER BY \"id\" DESC LIMIT \(bind: .int(Int64(limit)))"
    }
}
