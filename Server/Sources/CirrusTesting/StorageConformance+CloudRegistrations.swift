import CirrusModel
import CirrusStorage

/// Cloud code's registrations (Parse webhooks, scheduled jobs) and the record of the jobs' runs.
extension StorageConformance {
    static var cloudRegistrationChecks: [StorageCheck] {
        [
            StorageCheck("registrations are added once per kind and name, replaced, listed by name and removed", registrationLifecycle),
            StorageCheck("a due job run is claimed by one caller only, and its runs are recorded newest first and trimmed", jobRunClaims),
        ]
    }

    static func registrationLifecycle(_ driver: StorageConformanceDriver) async throws {
        let store = driver.store
        let hook = CloudRegistration(kind: .functionWebhook, name: "conformanceHello", definition: #"{"url":"http://a"}"#)
        try verify(try await store.addRegistration(hook), "a new registration is added")
        try verify(!(try await store.addRegistration(CloudRegistration(kind: .functionWebhook, name: "conformanceHello", definition: "{}"))), "a second one of that name is not")
        try verify(try await store.addRegistration(CloudRegistration(kind: .triggerWebhook, name: "conformanceHello", definition: "{}")), "the same name of another kind is")
        try verify(try await store.addRegistration(CloudRegistration(kind: .functionWebhook, name: "conformanceAbc", definition: "{}")), "another name")
        let listed = try await store.registrations(kind: .functionWebhook).filter { $0.name.hasPrefix("conformance") }
        try verifyEqual(listed.map(\.name), ["conformanceAbc", "conformanceHello"], "listed by name")
        try verifyEqual(listed.last, hook, "kept as added")

        let moved = CloudRegistration(kind: .functionWebhook, name: "conformanceHello", definition: #"{"url":"http://b"}"#, dueAt: Timestamp(millisecondsSince1970: 5))
        try verify(try await store.replaceRegistration(moved), "a replacement")
        try verifyEqual(try await store.registrations(kind: .functionWebhook).first { $0.name == "conformanceHello" }, moved, "the replaced registration")
        try verify(!(try await store.replaceRegistration(CloudRegistration(kind: .job, name: "conformanceMissing", definition: "{}"))), "no replacement of a missing one")
        try verify(try await store.deleteRegistration(kind: .functionWebhook, name: "conformanceHello"), "a removal")
        try verify(!(try await store.deleteRegistration(kind: .functionWebhook, name: "conformanceHello")), "a second removal")
        try verifyEqual(try await store.registrations(kind: .triggerWebhook).filter { $0.name == "conformanceHello" }.count, 1, "the other kind's stays")
        for (kind, name) in [(CloudRegistration.Kind.triggerWebhook, "conformanceHello"), (.functionWebhook, "conformanceAbc")] {
            _ = try await store.deleteRegistration(kind: kind, name: name)
        }
    }

    static func jobRunClaims(_ driver: StorageConformanceDriver) async throws {
        let store = driver.store
        let due = Timestamp(millisecondsSince1970: 60_000)
        let next = Timestamp(millisecondsSince1970: 120_000)
        try verify(try await store.addRegistration(CloudRegistration(kind: .job, name: "conformanceJob", definition: "{}", dueAt: due)), "a job")
        let claims = try await withThrowingTaskGroup(of: Int64?.self) { group in
            for _ in 0..<4 {
                group.addTask { try await store.startJobRun(name: "conformanceJob", claiming: (due, next), scheduledAt: due, startedAt: due) }
            }
            return try await group.reduce(into: [Int64?]()) { $0.append($1) }
        }
        try verifyEqual(claims.compactMap { $0 }.count, 1, "one of four callers claims the due run")
        try verifyEqual(try await store.registrations(kind: .job).first { $0.name == "conformanceJob" }?.dueAt, next, "the job moved to its next run")
        try verifyEqual(try await store.startJobRun(name: "conformanceJob", claiming: (due, next), scheduledAt: due, startedAt: due), nil, "a claim of a past due time")
        try verifyEqual(try await store.startJobRun(name: "conformanceNone", claiming: nil, scheduledAt: due, startedAt: due), nil, "a run of no job")

        let first = claims.compactMap { $0 }[0]
        try await store.finishJobRun(id: first, succeeded: false, detail: #"{"error":"no"}"#, finishedAt: next)
        let manual = try await store.startJobRun(name: "conformanceJob", claiming: nil, scheduledAt: next, startedAt: next)
        try verify(manual != nil, "a run asked for by hand is recorded whatever the due time")
        let runs = try await store.jobRuns(name: "conformanceJob", limit: 10)
        try verifyEqual(runs.map(\.id), [manual!, first], "runs newest first")
        try verifyEqual([runs[1].succeeded, runs[0].succeeded], [false, nil], "a finished and a running run")
        try verifyEqual(runs[1].detail, #"{"error":"no"}"#, "a run's detail")
        try verifyEqual(runs[1].finishedAt, next, "a run's end")

        for _ in 0..<JobRun.kept {
            _ = try await store.startJobRun(name: "conformanceJob", claiming: nil, scheduledAt: next, startedAt: next)
        }
        try verifyEqual(try await store.jobRuns(name: "conformanceJob", limit: 1_000).count, JobRun.kept, "only the newest runs are kept")
        try verify(try await store.deleteRegistration(kind: .job, name: "conformanceJob"), "the job removed")
        try verifyEqual(try await store.jobRuns(name: "conformanceJob", limit: 10), [], "its runs with it")
    }
}
