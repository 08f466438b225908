package import CirrusConcurrency
package import CirrusModel
package import CirrusStorage
package import Logging

/// Runs the scheduled jobs: every second it reads the jobs, and runs each one due, once across every instance sharing
/// the database (an instance claims a run by moving the job's next run in the store; only one claim of a due time
/// succeeds). A run calls the job's function with the master key and records how it ended. A run missed while no
/// instance was up runs once when one starts, then the schedule resumes from the present.
package struct JobScheduler: Sendable {
    let engine: CloudEngine
    let store: any StorageAdapter
    let logger: Logger
    /// How often the jobs are read while there are any (ten times less often while there are none; a job added or
    /// changed through this instance rings ``bell``).
    package var interval: Duration = .seconds(1)
    /// Rung when a job is added, changed or made due through this instance (the engine's, which every scheduler of the
    /// process shares).
    package var bell: Doorbell { engine.jobsBell }

    package init(engine: CloudEngine, store: any StorageAdapter, logger: Logger) {
        self.engine = engine
        self.store = store
        self.logger = logger
    }

    /// Runs due jobs until cancelled; runs go on beside the reading (a function may take its whole time limit).
    package func run() async {
        await withDiscardingTaskGroup { group in
            while !Task.isCancelled {
                let (claimed, jobsExist) = await claimDue(now: .now())
                for job in claimed {
                    group.addTask { _ = await execute(job.job, runId: job.runId) }
                }
                await bell.wait(upTo: jobsExist ? interval : interval * 10)
            }
        }
    }

    /// Claims the runs due at `now`: the jobs this instance is to run, each with its run's id, and whether any job
    /// exists.
    package func claimDue(now: Timestamp) async -> (claimed: [(job: ScheduledJob, runId: Int64)], jobsExist: Bool) {
        let registrations: [CloudRegistration]
        do {
            registrations = try await store.registrations(kind: .job)
        } catch {
            logger.warning("cannot read the scheduled jobs", metadata: ["error": "\(error)"])
            return ([], true)
        }
        var claimed: [(ScheduledJob, Int64)] = []
        for registration in registrations {
            guard let due = registration.dueAt, due <= now else { continue }
            guard let job = ScheduledJob(registration), let schedule = try? job.schedule() else {
                logger.error("a scheduled job cannot be read; it is left off", metadata: ["job": "\(registration.name)"])
                _ = try? await store.startJobRun(name: registration.name, claiming: (due, nil), scheduledAt: due, startedAt: now)
                continue
            }
            do {
                let next = job.enabled ? schedule.next(after: now) : nil
                if let runId = try await store.startJobRun(name: job.name, claiming: (due, next), scheduledAt: due, startedAt: now) {
                    claimed.append((job, runId))
                }
            } catch {
                logger.warning("cannot claim a scheduled job's run", metadata: ["job": "\(job.name)", "error": "\(error)"])
            }
        }
        return (claimed, !registrations.isEmpty)
    }

    /// Calls the job's function with the master key and records the run's end.
    /// - Returns: the run as recorded.
    @discardableResult
    package func execute(_ job: ScheduledJob, runId: Int64) async -> (succeeded: Bool, detail: JSON) {
        let call = CloudEngine.FunctionCall(name: job.function, rpc: false, parameters: JSONWriter.bytes(.object(job.params)))
        let outcome: (Bool, JSON)
        do {
            let reply = try await engine.call(call, caller: .master)
            outcome = (true, reply["result"] ?? .null)
        } catch {
            var failure: [String: JSON] = ["error": .string(error.message)]
            if let code = error.engineFailure?.code { failure["code"] = .int(Int64(code)) }
            outcome = (false, .object(failure))
            logger.warning("a scheduled job failed", metadata: ["job": "\(job.name)", "error": "\(error.message)"])
        }
        do {
            try await store.finishJobRun(id: runId, succeeded: outcome.0, detail: JSONWriter.string(outcome.1), finishedAt: .now())
        } catch {
            logger.warning("cannot record a scheduled job's run", metadata: ["job": "\(job.name)", "error": "\(error)"])
        }
        return outcome
    }
}
