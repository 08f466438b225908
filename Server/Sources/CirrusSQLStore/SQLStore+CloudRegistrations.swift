package import CirrusModel
import CirrusSQL
package import CirrusStorage

/// Cloud code's registrations (Parse webhooks, scheduled jobs) and the jobs' runs in their tables.
extension SQLStore {
    private var registrationStatements: CloudRegistrationStatements { CloudRegistrationStatements(dialect: dialect) }

    package func registrations(kind: CloudRegistration.Kind) async throws -> [CloudRegistration] {
        let statement = registrationStatements.list(kind: kind.rawValue)
        return try await reading { try await $0.rows(statement).compactMap(Self.registration) }
    }

    package func addRegistration(_ registration: CloudRegistration) async throws -> Bool {
        let statement = registrationStatements.add(
            kind: registration.kind.rawValue, name: registration.name, definition: registration.definition, dueAt: registration.dueAt
        )
        return try await writing { try await !$0.rows(statement).isEmpty }
    }

    package func replaceRegistration(_ registration: CloudRegistration) async throws -> Bool {
        let statement = registrationStatements.replace(
            kind: registration.kind.rawValue, name: registration.name, definition: registration.definition, dueAt: registration.dueAt
        )
        return try await writing { try await !$0.rows(statement).isEmpty }
    }

    package func deleteRegistration(kind: CloudRegistration.Kind, name: String) async throws -> Bool {
        let statements = registrationStatements
        return try await writing { session in
            guard try await !session.rows(statements.delete(kind: kind.rawValue, name: name)).isEmpty else { return false }
            if kind == .job { try await session.execute(statements.deleteRuns(job: name)) }
            return true
        }
    }

    package func startJobRun(
        name: String, claiming: (due: Timestamp, next: Timestamp?)?, scheduledAt: Timestamp, startedAt: Timestamp
    ) async throws -> Int64? {
        let statements = registrationStatements
        let check = claiming.map { statements.claim(job: name, due: $0.due, next: $0.next) } ?? statements.exists(job: name)
        return try await writing { session -> Int64? in
            guard try await !session.rows(check).isEmpty else { return nil }
            let id = try await session.rows(statements.startRun(job: name, scheduledAt: scheduledAt, startedAt: startedAt)).first?.first?.integer
            try await session.execute(statements.trimRuns(job: name, kept: JobRun.kept))
            return id
        }
    }

    package func finishJobRun(id: Int64, succeeded: Bool, detail: String, finishedAt: Timestamp) async throws {
        let statement = registrationStatements.finishRun(id: id, succeeded: succeeded, detail: detail, finishedAt: finishedAt)
        try await writing { try await $0.execute(statement) }
    }

    package func jobRuns(name: String, limit: Int) async throws -> [JobRun] {
        let statement = registrationStatements.listRuns(job: name, limit: limit)
        return try await reading { try await $0.rows(statement).compactMap(Self.jobRun) }
    }

    /// A row of ``CloudRegistrationStatements/list(kind:)``; `nil` for one that cannot be read.
    static func registration(_ row: [SQLValue]) -> CloudRegistration? {
        guard row.count >= 4, let kind = row[0].text.flatMap(CloudRegistration.Kind.init(rawValue:)), let name = row[1].text,
            let definition = row[2].text
        else { return nil }
        return CloudRegistration(kind: kind, name: name, definition: definition, dueAt: row[3].integer.map(Timestamp.init(millisecondsSince1970:)))
    }

    /// A row of ``CloudRegistrationStatements/listRuns(job:limit:)``; `nil` for one that cannot be read.
    static func jobRun(_ row: [SQLValue]) -> JobRun? {
        guard row.count >= 7, let id = row[0].integer, let job = row[1].text, let scheduled = row[2].integer, let started = row[3].integer else {
            return nil
        }
        return JobRun(
            id: id, job: job, scheduledAt: Timestamp(millisecondsSince1970: scheduled), startedAt: Timestamp(millisecondsSince1970: started),
            finishedAt: row[4].integer.map(Timestamp.init(millisecondsSince1970:)), succeeded: row[5].integer.map { $0 != 0 }, detail: row[6].text
        )
    }
}
