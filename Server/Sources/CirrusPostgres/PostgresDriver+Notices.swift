import CirrusModel
import CirrusSQL
import CirrusSQLStore
package import CirrusStorage
import Foundation
import PostgresNIO

/// Change notices between the instances sharing one database, over `LISTEN`/`NOTIFY` on one channel. A payload is
/// `<schema> <JSON>`: instances serving another schema of the same database ignore it. The notice
/// ``changeLogNotice`` says that a transaction appended to the change log; it makes the ``PostgresChangeLogReader``
/// read.
extension PostgresDriver {
    static let noticeChannel = "cirrus_changes"
    /// The payload (after the schema) of a commit that appended to the change log: the same from every instance, so
    /// PostgreSQL folds the notices of one transaction into one.
    static let changeLogNotice = #"{"kind":"log"}"#

    /// Sends a notice on the channel; every other instance's ``notices()`` yields it. A notice that cannot be sent is
    /// logged: the others then see the change when their caches expire (sessions) or on their next start (schemas).
    package func announce(_ notice: ChangeNotice) async {
        let payload = JSONWriter.string(Self.encode(notice, from: instanceId))
        do {
            try await withConnection { try await PostgresSession($0, self).execute(PostgresDialect.notify(Self.noticeChannel, [payload])) }
        } catch {
            logger.warning("a change notice could not be sent", metadata: ["notice": "\(notice)", "error": "\(error)"])
        }
    }

    /// The notices of the other instances, for one consumer (the server's), from the start of listening (``open()``)
    /// until the store closes. When the listening connection is lost, the stream yields ``ChangeNotice/everything``
    /// once listening again, since notices may have been missed.
    package func notices() -> AsyncStream<ChangeNotice> {
        startListening()
        return background.notices
    }

    /// Appends the records to the change-log table, notifying every instance's reader when the transaction commits
    /// (1 000 rows to a statement, well below PostgreSQL's 65 535 parameters).
    package func log(_ records: [ChangeRecord], in session: PostgresSession) async throws {
        let rows = records.map(ChangeLogCodec.row)
        let now = Timestamp.now()
        for start in stride(from: 0, to: rows.count, by: 1_000) {
            let chunk = Array(rows[start..<min(start + 1_000, rows.count)])
            try await session.execute(PostgresDialect.appendChanges(chunk, at: now, notifying: Self.noticeChannel, notice: Self.changeLogNotice))
        }
    }

    /// Once the migrations have run: the change log so far is history (this instance's subscribers get what commits
    /// from now on); listening and reading start with the first reader of notices or of the change log (a store that
    /// no one listens to, such as a test's or `cirrus import`'s, holds no listening connection).
    package func start() async throws {
        let last = try await collectRows(PostgresDialect.lastChangeSequence).first?.first?.integer ?? 0
        changeLogReader.begin(at: last)
        changeLog.begin(at: last)
        changeLog.whenFirstSubscribed { [self] in startListening() }
    }

    /// Listens on the channel and reads the change log until the driver closes (reconnecting after a loss); once.
    func startListening() {
        guard background.claimStart() else { return }
        background.start { [self] in
            var lost = false
            while !Task.isCancelled {
                do {
                    try await listen(afterLoss: lost)
                } catch {
                    if !Task.isCancelled { logger.warning("listening for change notices failed", metadata: ["error": "\(error)"]) }
                }
                lost = true
                try? await Task.sleep(for: .seconds(1))
            }
        }
        background.start { [self] in await changeLogReader.run(on: self) }
    }

    private func listen(afterLoss lost: Bool) async throws {
        try await withConnection { connection in
            let schema = try await PostgresSession(connection, self).rows(PostgresDialect.currentSchema).first?.first?.text ?? ""
            try await connection.listen(on: Self.noticeChannel) { notifications in
                if lost { self.background.yield(.everything) }
                // Anything appended while no one listened is read now.
                self.changeLogReader.poke()
                for try await notification in notifications {
                    guard let space = notification.payload.firstIndex(of: " "), notification.payload[..<space] == schema else { continue }
                    let body = notification.payload[notification.payload.index(after: space)...]
                    if body == Self.changeLogNotice {
                        self.changeLogReader.poke()
                    } else if let notice = Self.decode(String(body), ignoring: self.instanceId) {
                        self.background.yield(notice)
                    }
                }
            }
        }
    }

    static func encode(_ notice: ChangeNotice, from instance: String) -> JSON {
        switch notice {
        case .schema(let className): ["from": .string(instance), "kind": "schema", "class": .string(className)]
        case .sessions: ["from": .string(instance), "kind": "sessions"]
        case .everything: ["from": .string(instance), "kind": "everything"]
        case .webhooks: ["from": .string(instance), "kind": "webhooks"]
        case .liveSubscriptions(let clientId): ["from": .string(instance), "kind": "live", "client": .string(clientId)]
        }
    }

    /// The notice in a payload, unless this instance sent it or it is malformed.
    static func decode(_ payload: String, ignoring instance: String) -> ChangeNotice? {
        guard let json = try? JSONParser.parse(payload), let from = json["from"]?.stringValue, from != instance else { return nil }
        switch json["kind"]?.stringValue {
        case "schema": return json["class"]?.stringValue.map { .schema(className: $0) }
        case "sessions": return .sessions
        case "everything": return .everything
        case "webhooks": return .webhooks
        case "live": return json["client"]?.stringValue.map { .liveSubscriptions(clientId: $0) }
        default: return nil
        }
    }
}

/// The driver's background work (the listener, the change-log reader) and the stream of notices it yields; ended by
/// ``stop()`` when the driver closes.
final class DriverBackground: Sendable {
    private let lock = Lock()
    nonisolated(unsafe) private var tasks: [Task<Void, Never>] = []
    nonisolated(unsafe) private var stopped = false
    let notices: AsyncStream<ChangeNotice>
    private let continuation: AsyncStream<ChangeNotice>.Continuation

    init() {
        (notices, continuation) = AsyncStream.makeStream(of: ChangeNotice.self, bufferingPolicy: .bufferingNewest(1_000))
    }

    nonisolated(unsafe) private var started = false

    /// `true` the first time only.
    func claimStart() -> Bool {
        lock.withLock {
            defer { started = true }
            return !started
        }
    }

    func start(_ work: @escaping @Sendable () async -> Void) {
        lock.withLock {
            guard !stopped else { return }
            tasks.append(Task { await work() })
        }
    }

    func yield(_ notice: ChangeNotice) {
        continuation.yield(notice)
    }

    func stop() async {
        let running = lock.withLock {
            stopped = true
            return tasks
        }
        for task in running { task.cancel() }
        for task in running { await task.value }
        continuation.finish()
    }
}
