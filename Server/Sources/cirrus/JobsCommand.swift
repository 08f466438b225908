import ArgumentParser
import CirrusModel
import CirrusServer
import CirrusServices
import Foundation

/// `cirrus jobs list|add|change|remove|run|runs`: the scheduled jobs of the database, managed without a server.
struct JobsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "jobs",
        abstract: "Manage the scheduled jobs: cron schedules that call a cloud function.",
        discussion: """
            Jobs live in the database: every server on it sees them, and each run happens once across them. \
            Schedules are cron expressions: five fields (minute hour day month weekday) or Quartz's six or seven \
            (second first, year last), read in --time-zone (UTC by default; LeanCloud's ran in Asia/Shanghai). \
            See docs/CLOUD-CODE.md.
            """,
        subcommands: [List.self, Add.self, Change.self, Remove.self, Run.self, Runs.self]
    )

    /// A job's settings, as flags.
    struct Settings: ParsableArguments {
        @Option(help: "The cloud function the job calls.")
        var function: String?

        @Option(help: "When it runs: a cron expression, e.g. \"0 0 3 * * ?\" (03:00 every day).")
        var cron: String?

        @Option(help: "The IANA time zone the schedule is read in (UTC by default).")
        var timeZone: String?

        @Option(help: "The function's parameters, a JSON object.")
        var params: String?

        @Option(help: "What the job is for.")
        var description: String?

        /// The request body these flags make, with `enabled` when given.
        func body(enabled: Bool?) throws -> JSON {
            var members: [String: JSON] = [:]
            if let function { members["function"] = .string(function) }
            if let cron { members["cron"] = .string(cron) }
            if let timeZone { members["timeZone"] = .string(timeZone) }
            if let description { members["description"] = .string(description) }
            if let params { members["params"] = try JSONParser.parse(Array(params.utf8)) }
            if let enabled { members["enabled"] = .bool(enabled) }
            return .object(members)
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Print every job, one JSON object per line.")
        @OptionGroup var store: StoreOptions

        func run() async throws {
            let jobs = try await CirrusServer.withScheduledJobs(store.configuration()) { try await $0.list() }
            for job in jobs { print(JSONWriter.string(job.wire)) }
        }
    }

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Add a job.")
        @OptionGroup var store: StoreOptions
        @Argument(help: "The job's name (letters, digits, _ and -).") var name: String
        @OptionGroup var settings: Settings
        @Flag(help: "Add it switched off.") var disabled = false

        func run() async throws {
            guard case .object(var members) = try settings.body(enabled: disabled ? false : nil) else { return }
            members["name"] = .string(name)
            let body = JSON.object(members)
            let job = try await CirrusServer.withScheduledJobs(store.configuration()) { try await $0.create(body) }
            print(JSONWriter.string(job.wire))
        }
    }

    struct Change: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Change a job's settings; the ones not given stay.")
        @OptionGroup var store: StoreOptions
        @Argument(help: "The job's name.") var name: String
        @OptionGroup var settings: Settings
        @Flag(inversion: .prefixedEnableDisable, help: "Switch it on or off.") var enabled: Bool?

        func run() async throws {
            let (name, body) = (name, try settings.body(enabled: enabled))
            let job = try await CirrusServer.withScheduledJobs(store.configuration()) { try await $0.update(name, body: body) }
            print(JSONWriter.string(job.wire))
        }
    }

    struct Remove: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Remove a job and the record of its runs.")
        @OptionGroup var store: StoreOptions
        @Argument(help: "The job's name.") var name: String

        func run() async throws {
            let name = name
            try await CirrusServer.withScheduledJobs(store.configuration()) { try await $0.delete(name) }
            print("removed \(name)")
        }
    }

    struct Run: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Make a job due now: a running server runs it within a second.")
        @OptionGroup var store: StoreOptions
        @Argument(help: "The job's name.") var name: String

        func run() async throws {
            let name = name
            try await CirrusServer.withScheduledJobs(store.configuration()) { try await $0.runSoon(name) }
            print("\(name) is due now; `cirrus jobs runs \(name)` shows how it went")
        }
    }

    struct Runs: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Print a job's last runs, newest first, one JSON object per line.")
        @OptionGroup var store: StoreOptions
        @Argument(help: "The job's name.") var name: String
        @Option(help: "How many runs (at most 100).") var limit = 20

        func run() async throws {
            let (name, limit) = (name, limit)
            let runs = try await CirrusServer.withScheduledJobs(store.configuration()) { try await $0.runs(name, limit: limit) }
            for run in runs { print(JSONWriter.string(run.wire)) }
        }
    }
}

extension StoreOptions {
    /// A server configuration naming the store these options (or their variables) choose.
    func configuration() -> ServerConfiguration {
        var configuration = ServerConfiguration()
        let (dataDirectory, databaseURL) = resolve(environment: ProcessInfo.processInfo.environment)
        configuration.dataDirectory = dataDirectory ?? configuration.dataDirectory
        configuration.databaseURL = databaseURL
        return configuration
    }
}
