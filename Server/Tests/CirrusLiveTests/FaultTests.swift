import CirrusTesting
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The fault suite: a live `cirrus serve` whose database goes away under load, whose process is stopped under load or
/// while its requests are stuck, and whose clients take every file descriptor. Every request gets an answer within
/// its deadline, the server recovers, and SIGTERM stops it within its shutdown timeout.
@Suite("Faults: the database going away, shutdown under load, file-descriptor exhaustion")
struct FaultTests {
    @Test("PostgreSQL stopped and restarted under load: every request answered within its deadline, the server recovers, SIGTERM stops it")
    func postgresRestart() async throws {
        try await Sandbox.with { sandbox in
            let postgres = try await ThrowawayPostgres.start(in: sandbox.path("pg"))
            do {
                let server = try await sandbox.startServer(extra: [
                    "--database", postgres.url, "--request-timeout", "3", "--database-wait-timeout", "2", "--shutdown-timeout", "5",
                ])
                #expect(try await server.client.send("POST", "/1.1/classes/Load", json: ["n": 0]).status == 201)
                let load = LoadGenerator(server)
                try await Task.sleep(for: .seconds(1))
                try await postgres.stop()
                try await Task.sleep(for: .seconds(1.5))
                try await postgres.restart()
                let restarted = ContinuousClock.now
                let recovered = await load.succeeds(after: restarted, within: .seconds(20))
                try await Task.sleep(for: .seconds(1))
                await load.stop()
                let outcomes = load.all
                #expect(recovered, "no request succeeded after PostgreSQL came back")
                #expect(outcomes.allSatisfy { $0.status != nil }, "unanswered: \(outcomes.filter { $0.status == nil }.map(\.error))")
                // The deadline is 3 s: an answer may come a little after it on a busy machine, never long after.
                let slowest = outcomes.map(\.elapsed).max() ?? .zero
                #expect(slowest < .seconds(6), "the slowest request took \(slowest)")
                #expect(outcomes.contains { ($0.status ?? 0) >= 500 }, "the outage was not seen: \(outcomes.count) requests")
                try await Self.expectStops(server, within: .seconds(5))
            } catch {
                try? await postgres.stop()
                throw error
            }
            try await postgres.stop()
        }
    }

    @Test("SIGTERM under load: requests in flight finish or fail cleanly and the process exits 0 within the shutdown timeout")
    func shutdownUnderLoad() async throws {
        try await Sandbox.with { sandbox in
            let server = try await sandbox.startServer(extra: ["--shutdown-timeout", "3"])
            let load = LoadGenerator(server)
            try await Task.sleep(for: .seconds(1))
            let stopping = ContinuousClock.now
            server.process.send(SIGTERM)
            let termination = try await server.process.waitForExit(timeout: .seconds(20))
            let stopped = ContinuousClock.now
            await load.stop()
            #expect(termination == .exited(0), "\(server.process.output)")
            #expect(stopped - stopping < .seconds(5))
            let outcomes = load.all
            #expect(outcomes.contains { $0.status == 201 })
            // A request either got its whole answer, a success (the store stays open until the last one), or could not
            // reach the server; none waited long.
            for outcome in outcomes {
                if let status = outcome.status { #expect(status < 300, "a request in flight failed with \(status)") }
                #expect(outcome.elapsed < .seconds(5), "\(outcome.error ?? "")")
            }
            #expect(server.process.output.contains("store closed"))
        }
    }

    @Test("requests stuck on a locked database are answered at their deadline (124), and SIGTERM still stops the server", arguments: Store.allCases)
    func stuckStore(_ store: Store) async throws {
        try await Sandbox.with { sandbox in
            let postgres = store == .postgres ? try await ThrowawayPostgres.start(in: sandbox.path("pg")) : nil
            do {
                let database = postgres.map { ["--database", $0.url] } ?? []
                let server = try await sandbox.startServer(extra: database + ["--request-timeout", "1", "--shutdown-timeout", "2"])
                #expect(try await server.client.send("POST", "/1.1/classes/Load", json: ["n": 0]).status == 201)
                let lock = try await Self.lockTable(of: store, in: sandbox, postgres: postgres)
                let start = ContinuousClock.now
                let reply = try await server.client.send("POST", "/1.1/classes/Load", json: ["n": 1])
                #expect(reply.status == 503)
                #expect(reply.code == 124)
                #expect(ContinuousClock.now - start < .seconds(4))
                // More requests get stuck behind the lock; SIGTERM stops the server anyway.
                let stuck = (0..<4).map { index in Task { try? await server.client.send("POST", "/1.1/classes/Load", json: ["n": .int(Int64(index))]) } }
                try await Task.sleep(for: .milliseconds(300))
                try await Self.expectStops(server, within: .seconds(2))
                for request in stuck { _ = await request.value }
                lock.send(SIGKILL)
            } catch {
                try? await postgres?.stop()
                throw error
            }
            try await postgres?.stop()
        }
    }

    @Test("more idle connections than the file limit: new clients are still answered and the server does not spin")
    func descriptorExhaustion() async throws {
        try await Sandbox.with { sandbox in
            // The soft limit starts low and is raised to the hard limit, 256, at start (and logged).
            let server = try await sandbox.startServer(wrapper: ["/usr/bin/prlimit", "--nofile=128:256", "--"], extra: [])
            #expect(server.process.output.contains("file descriptor limit raised"), "\(server.process.output)")
            var idle: [RawConnection] = []
            for _ in 0..<400 { idle.append(try RawConnection(port: server.port)) }
            // A connection idle for half a second may be closed to make room for a new one.
            try await Task.sleep(for: .seconds(1))
            try await Self.expectAnswered(server)
            // No core spun meanwhile: the process used little CPU while the connections sat there.
            let before = try Self.cpuTime(of: server.process)
            try await Task.sleep(for: .seconds(2))
            #expect(try Self.cpuTime(of: server.process) - before < .milliseconds(500))

            // The limit drops below what is open: accept fails with EMFILE, idle connections are closed to make room.
            let lowered = try sandbox.launchTool("/usr/bin/prlimit", ["--pid", String(server.process.processIdentifier), "--nofile=64:64"])
            #expect(try await lowered.waitForExit() == .exited(0))
            let more = try (0..<50).map { _ in try RawConnection(port: server.port) }
            try await Task.sleep(for: .seconds(1))
            try await Self.expectAnswered(server)
            let spinning = try Self.cpuTime(of: server.process)
            try await Task.sleep(for: .seconds(2))
            #expect(try Self.cpuTime(of: server.process) - spinning < .milliseconds(500))
            #expect(server.process.output.contains("accepting connections paused"))
            withExtendedLifetime((idle, more)) {}
            try await Self.expectStops(server, within: .seconds(10))
        }
    }

    @Test("the runtime's timers of every clock exist before the first client, so running out of descriptors cannot abort a later timer")
    func timersPrimed() async throws {
        try await Sandbox.with { sandbox in
            let server = try await sandbox.startServer(extra: [])
            // libdispatch makes a clock's timer descriptor when its first timer is armed, and aborts when it cannot:
            // a shutdown (or any first sleep of a clock) with every descriptor taken crashed the server.
            #expect(try Self.timerClocks(of: server.process).isSuperset(of: [0, 1, 7]), "CLOCK_REALTIME, CLOCK_MONOTONIC and CLOCK_BOOTTIME")
            try await Self.expectStops(server, within: .seconds(10))
        }
    }

    /// The clocks (`clockid` of `/proc/<pid>/fdinfo`) of the process's timer descriptors.
    static func timerClocks(of process: ChildProcess) throws -> Set<Int> {
        let directory = "/proc/\(process.processIdentifier)/fdinfo"
        var clocks: Set<Int> = []
        for descriptor in try FileManager.default.contentsOfDirectory(atPath: directory) {
            guard let info = try? String(contentsOfFile: directory + "/" + descriptor, encoding: .utf8) else { continue }
            for line in info.split(separator: "\n") where line.hasPrefix("clockid:") {
                if let clock = Int(line.dropFirst("clockid:".count).trimmingCharacters(in: .whitespaces)) { clocks.insert(clock) }
            }
        }
        return clocks
    }

    enum Store: String, CaseIterable, Sendable {
        case sqlite, postgres
    }

    /// Holds a write lock on the table of class `Load` from another process until killed.
    static func lockTable(of store: Store, in sandbox: Sandbox, postgres: ThrowawayPostgres?) async throws -> ChildProcess {
        switch store {
        case .sqlite:
            let script = "import sqlite3, sys, time\nc = sqlite3.connect(sys.argv[1], isolation_level=None)\nc.execute('BEGIN EXCLUSIVE')\nprint('locked', flush=True)\ntime.sleep(60)"
            let lock = try sandbox.launchTool("/usr/bin/env", ["python3", "-c", script, sandbox.path("data/cirrus.sqlite")])
            try await waitUntil("the SQLite lock was taken") { lock.output.contains("locked") }
            return lock
        case .postgres:
            let postgres = try #require(postgres)
            let lock = try sandbox.launchTool("/usr/bin/env", [
                "psql", postgres.url, "-X", "-c", "BEGIN; LOCK TABLE o_load IN ACCESS EXCLUSIVE MODE; SELECT pg_sleep(60);",
            ])
            try await waitUntil("the PostgreSQL lock was taken") {
                let held = try? await postgres.psql("SELECT count(*) FROM pg_locks WHERE relation = 'o_load'::regclass AND mode = 'AccessExclusiveLock' AND granted")
                return held == "1"
            }
            return lock
        }
    }

    /// Waits (at most 30 s) until `condition` holds.
    static func waitUntil(_ what: String, _ condition: () async -> Bool) async throws {
        let deadline = ContinuousClock.now + .seconds(30)
        while !(await condition()) {
            guard ContinuousClock.now < deadline else { throw LiveTestError(description: "Timed out: \(what).") }
            try await Task.sleep(for: .milliseconds(50))
        }
    }

    /// A new client's request is answered within a few seconds.
    static func expectAnswered(_ server: LiveServer) async throws {
        let connection = try RawConnection(port: server.port)
        try connection.write("GET /1.1/date HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        let start = ContinuousClock.now
        let text = connection.readToEnd()
        #expect(RawReply(text)?.status == 200, "reply: \(text.prefix(300)), after \(ContinuousClock.now - start)\n\(server.process.output.suffix(2000))")
        #expect(ContinuousClock.now - start < .seconds(10))
    }

    /// SIGTERM ends the process within `timeout` (and a little slack for a busy machine).
    static func expectStops(_ server: LiveServer, within timeout: Duration) async throws {
        let start = ContinuousClock.now
        server.process.send(SIGTERM)
        _ = try await server.process.waitForExit(timeout: timeout + .seconds(15))
        let took = ContinuousClock.now - start
        #expect(took < timeout + .seconds(2), "SIGTERM took \(took) to stop the server")
    }

    /// The user and system CPU time the process has used.
    static func cpuTime(of process: ChildProcess) throws -> Duration {
        let stat = try String(contentsOfFile: "/proc/\(process.processIdentifier)/stat", encoding: .utf8)
        // The fields after the command's closing parenthesis: utime and stime are the 12th and 13th.
        let fields = stat[stat.index(after: stat.lastIndex(of: ")")!)...].split(separator: " ")
        let ticks = (Int(fields[11]) ?? 0) + (Int(fields[12]) ?? 0)
        return .milliseconds(ticks * 1000 / sysconf(Int32(_SC_CLK_TCK)))
    }
}
