import CirrusConcurrency
package import CirrusModel
package import CirrusStorage

/// The scheduled jobs' API (master key): create, list, read, change and remove jobs, run one now, read its runs.
package struct ScheduledJobs: Sendable {
    let store: any StorageAdapter
    let scheduler: JobScheduler

    package init(store: any StorageAdapter, scheduler: JobScheduler) {
        self.store = store
        self.scheduler = scheduler
    }

    package func list() async throws -> [ScheduledJob] {
        try await store.registrations(kind: .job).compactMap(ScheduledJob.init)
    }

    /// - Throws: ``APIError`` ``APIError/Reason/objectNotFound`` when there is no such job.
    package func get(_ name: String) async throws -> ScheduledJob {
        guard let job = try await list().first(where: { $0.name == name }) else { throw Self.missing(name) }
        return job
    }

    /// Adds a job from `{"name", "function", "cron", "timeZone"?, "params"?, "enabled"?, "description"?}`.
    /// - Throws: ``APIError``: ``APIError/Reason/invalidParameter`` for a bad field, ``APIError/Reason/duplicateValue``
    ///   for a name in use.
    package func create(_ body: JSON) async throws -> ScheduledJob {
        guard let name = body["name"]?.stringValue else { throw ScheduledJob.invalid("name is required") }
        let job = try ScheduledJob.reading(body, name: name, now: .now())
        guard try await store.addRegistration(job.registration) else {
            throw APIError(.duplicateValue, "A job named \(name) already exists.")
        }
        scheduler.bell.ring()
        return job
    }

    /// Changes the fields `body` gives; the next run is computed again.
    package func update(_ name: String, body: JSON) async throws -> ScheduledJob {
        let current = try await get(name)
        if let renamed = body["name"]?.stringValue, renamed != name { throw ScheduledJob.invalid("a job's name does not change") }
        let job = try ScheduledJob.reading(body, name: name, over: current, now: .now())
        guard try await store.replaceRegistration(job.registration) else { throw Self.missing(name) }
        scheduler.bell.ring()
        return job
    }

    /// Removes a job and its runs.
    package func delete(_ name: String) async throws {
        guard try await store.deleteRegistration(kind: .job, name: name) else { throw Self.missing(name) }
    }

    /// Runs a job now, whether or not it is on, and answers the run as recorded.
    package func runNow(_ name: String) async throws -> JobRun {
        let job = try await get(name)
        let now = Timestamp.now()
        guard let runId = try await store.startJobRun(name: name, claiming: nil, scheduledAt: now, startedAt: now) else { throw Self.missing(name) }
        await scheduler.execute(job, runId: runId)
        guard let run = try await store.jobRuns(name: name, limit: JobRun.kept).first(where: { $0.id == runId }) else { throw Self.missing(name) }
        return run
    }

    /// Makes a job due now, whether or not it is on: a running server (any instance on the database) runs it within a
    /// second, then the schedule resumes.
    package func runSoon(_ name: String) async throws {
        var job = try await get(name)
        job.nextRunAt = .now()
        guard try await store.replaceRegistration(job.registration) else { throw Self.missing(name) }
    }

    /// A job's runs, newest first.
    package func runs(_ name: String, limit: Int) async throws -> [JobRun] {
        _ = try await get(name)
        return try await store.jobRuns(name: name, limit: max(1, min(limit, JobRun.kept)))
    }

    static func missing(_ name: String) -> APIError {
        APIError(.objectNotFound, "No job named \(name.prefix(64)).")
    }
}
