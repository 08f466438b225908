package import CirrusModel
package import CirrusStorage

/// A scheduled job (LeanCloud's 定时任务): a cloud function called on a cron schedule with fixed parameters.
package struct ScheduledJob: Sendable, Equatable {
    package var name: String
    /// The cloud function it calls (on the engine, or a Parse function webhook).
    package var function: String
    package var cron: String
    /// The IANA time zone the schedule is read in.
    package var timeZone: String
    /// The function's parameters, a JSON object.
    package var params: [String: JSON]
    package var enabled: Bool
    package var description: String?
    /// When it runs next; `nil` when it is off (or its schedule names no further time).
    package var nextRunAt: Timestamp?

    /// The schedule, read.
    package func schedule() throws(APIError) -> CronSchedule {
        try CronSchedule(cron, timeZone: timeZone)
    }

    // MARK: Wire and storage forms

    /// `{"name", "function", "cron", "timeZone", "params", "enabled", "description"?, "nextRunAt"}`.
    package var wire: JSON {
        var members: [String: JSON] = [
            "name": .string(name), "function": .string(function), "cron": .string(cron), "timeZone": .string(timeZone),
            "params": .object(params), "enabled": .bool(enabled),
            "nextRunAt": nextRunAt.map { ["__type": "Date", "iso": .string($0.iso8601)] } ?? .null,
        ]
        if let description { members["description"] = .string(description) }
        return .object(members)
    }

    /// The registration it is stored as.
    package var registration: CloudRegistration {
        var definition: [String: JSON] = [
            "function": .string(function), "cron": .string(cron), "timeZone": .string(timeZone), "params": .object(params), "enabled": .bool(enabled),
        ]
        if let description { definition["description"] = .string(description) }
        return CloudRegistration(kind: .job, name: name, definition: JSONWriter.string(.object(definition)), dueAt: nextRunAt)
    }

    /// The job a registration stores; `nil` for one that cannot be read.
    package init?(_ registration: CloudRegistration) {
        guard registration.kind == .job, case .object(let members)? = try? JSONParser.parse(Array(registration.definition.utf8)),
            let function = members["function"]?.stringValue, let cron = members["cron"]?.stringValue
        else { return nil }
        self.init(
            name: registration.name, function: function, cron: cron, timeZone: members["timeZone"]?.stringValue ?? "UTC",
            params: members["params"]?.objectValue ?? [:], enabled: members["enabled"]?.boolValue ?? true,
            description: members["description"]?.stringValue, nextRunAt: registration.dueAt
        )
    }

    package init(
        name: String, function: String, cron: String, timeZone: String = "UTC", params: [String: JSON] = [:], enabled: Bool = true,
        description: String? = nil, nextRunAt: Timestamp? = nil
    ) {
        self.name = name
        self.function = function
        self.cron = cron
        self.timeZone = timeZone
        self.params = params
        self.enabled = enabled
        self.description = description
        self.nextRunAt = nextRunAt
    }

    /// A job from a request's body, over `base` for a change (fields not given keep their value); validated, with its
    /// next run from `now`.
    /// - Throws: ``APIError`` ``APIError/Reason/invalidParameter`` naming the field.
    package static func reading(_ body: JSON, name: String, over base: ScheduledJob? = nil, now: Timestamp) throws(APIError) -> ScheduledJob {
        guard case .object(let members) = body else { throw invalid("the body must be a JSON object") }
        for key in members.keys where !["name", "function", "cron", "timeZone", "params", "enabled", "description", "nextRunAt"].contains(key) {
            throw invalid("unknown field \(key.prefix(64))")
        }
        try checkName(name)
        func text(_ key: String) throws(APIError) -> String? {
            guard let value = members[key] else { return nil }
            guard let text = value.stringValue else { throw invalid("\(key) must be a string") }
            return text
        }
        guard let function = try text("function") ?? base?.function else { throw invalid("function is required") }
        guard let cron = try text("cron") ?? base?.cron else { throw invalid("cron is required") }
        try CloudEngine.checkName(function, invalid: invalid("function \(function.prefix(128)) is not a function name"))
        var job = ScheduledJob(name: name, function: function, cron: cron, timeZone: try text("timeZone") ?? base?.timeZone ?? "UTC")
        switch members["params"] {
        case nil: job.params = base?.params ?? [:]
        case .object(let params)?: job.params = params
        default: throw invalid("params must be a JSON object")
        }
        switch members["enabled"] {
        case nil: job.enabled = base?.enabled ?? true
        case .bool(let enabled)?: job.enabled = enabled
        default: throw invalid("enabled must be true or false")
        }
        job.description = try text("description") ?? base?.description
        if let description = job.description, description.count > 1_000 { throw invalid("description is longer than 1000 characters") }
        let schedule = try job.schedule()
        job.nextRunAt = job.enabled ? schedule.next(after: now) : nil
        return job
    }

    /// A job's name: 1–64 letters, digits, `_` and `-`.
    package static func checkName(_ name: String) throws(APIError) {
        let allowed = name.utf8.allSatisfy { $0 != UInt8(ascii: ".") && CloudEngine.isNameByte($0) }
        guard !name.isEmpty, name.utf8.count <= 64, allowed else { throw invalid("a job's name is 1–64 letters, digits, _ and -") }
    }

    static func invalid(_ detail: String) -> APIError {
        APIError(.invalidParameter, "Invalid job: \(detail).")
    }
}

extension JobRun {
    /// `{"id", "job", "scheduledAt", "startedAt", "finishedAt", "status", "result" | "error"}`, status `running`,
    /// `succeeded` or `failed`.
    package var wire: JSON {
        func date(_ time: Timestamp?) -> JSON { time.map { ["__type": "Date", "iso": .string($0.iso8601)] } ?? .null }
        var members: [String: JSON] = [
            "id": .int(id), "job": .string(job), "scheduledAt": date(scheduledAt), "startedAt": date(startedAt), "finishedAt": date(finishedAt),
            "status": .string(succeeded.map { $0 ? "succeeded" : "failed" } ?? "running"),
        ]
        if let detail, let value = try? JSONParser.parse(Array(detail.utf8)) {
            members[succeeded == true ? "result" : "error"] = value
        }
        return .object(members)
    }
}
