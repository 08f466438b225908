package import CirrusModel

/// What the app registered of its cloud code in the database rather than in an engine: Parse's webhooks and the
/// scheduled jobs. Every instance on a database reads the same registrations.
package struct CloudRegistration: Sendable, Hashable {
    /// What a registration is.
    package enum Kind: String, Sendable, CaseIterable {
        /// A Parse cloud function served by a webhook; named after the function.
        case functionWebhook = "function"
        /// A Parse trigger served by a webhook; named `<className>.<triggerName>`.
        case triggerWebhook = "trigger"
        /// A scheduled job; named by the app.
        case job
    }

    package var kind: Kind
    package var name: String
    /// The registration's settings, as JSON text (the services' to read).
    package var definition: String
    /// A job's next run; `nil` for a webhook or a job that is off.
    package var dueAt: Timestamp?

    package init(kind: Kind, name: String, definition: String, dueAt: Timestamp? = nil) {
        self.kind = kind
        self.name = name
        self.definition = definition
        self.dueAt = dueAt
    }
}

/// One run of a scheduled job, as recorded.
package struct JobRun: Sendable, Hashable {
    package var id: Int64
    package var job: String
    /// When the run was due (for a run asked for by hand, when it was asked for).
    package var scheduledAt: Timestamp
    package var startedAt: Timestamp
    /// `nil` while it runs (or when the instance running it stopped before it finished).
    package var finishedAt: Timestamp?
    /// `nil` while it runs.
    package var succeeded: Bool?
    /// The function's result or error, as JSON text.
    package var detail: String?

    package init(
        id: Int64, job: String, scheduledAt: Timestamp, startedAt: Timestamp, finishedAt: Timestamp? = nil, succeeded: Bool? = nil,
        detail: String? = nil
    ) {
        self.id = id
        self.job = job
        self.scheduledAt = scheduledAt
        self.startedAt = startedAt
        self.finishedAt = finishedAt
        self.succeeded = succeeded
        self.detail = detail
    }
}

/// The cloud-code registrations and the record of the jobs' runs.
package protocol CloudRegistrationStorage: Sendable {
    /// Every registration of a kind, by name.
    func registrations(kind: CloudRegistration.Kind) async throws -> [CloudRegistration]

    /// Adds a registration; `false` when one of its kind and name exists (it is left as it was).
    func addRegistration(_ registration: CloudRegistration) async throws -> Bool

    /// Replaces the definition and due time of the registration of its kind and name; `false` when there is none.
    func replaceRegistration(_ registration: CloudRegistration) async throws -> Bool

    /// Removes a registration (a job's runs with it); `false` when there is none.
    func deleteRegistration(kind: CloudRegistration.Kind, name: String) async throws -> Bool

    /// Records that a run of the job `name` starts at `startedAt`. With `claiming`, only if the job is still due at
    /// `claiming.due`, moving it to `claiming.next` in the same transaction: of several instances claiming one due
    /// run, one gets its id and the others `nil`. Without, the run is recorded whatever the job's due time (a run
    /// asked for by hand), or `nil` when there is no such job. Keeps the job's last ``JobRun/kept`` runs.
    func startJobRun(name: String, claiming: (due: Timestamp, next: Timestamp?)?, scheduledAt: Timestamp, startedAt: Timestamp) async throws -> Int64?

    /// Records how a run ended.
    func finishJobRun(id: Int64, succeeded: Bool, detail: String, finishedAt: Timestamp) async throws

    /// A job's runs, newest first, at most `limit`.
    func jobRuns(name: String, limit: Int) async throws -> [JobRun]
}

extension JobRun {
    /// How many runs of a job are kept.
    package static let kept = 100
}
