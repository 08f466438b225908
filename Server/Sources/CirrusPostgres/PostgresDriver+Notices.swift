import CirrusModel
package import CirrusSQL
import CirrusSQLStore
package import CirrusStorage
import Foundation
import PostgresNIO

/// Change notices between the instances sharing one database, over `LISTEN`/`NOTIFY` on one channel. A payload is
/// `<schema> <JSON>`: instances serving another schema of the same database ignore it.
extension PostgresDriver {
    static let noticeChannel = "cirrus_changes"

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

    /// The notices of the other instances. One pooled connection listens while the stream is iterated; when it is
    /// lost, the stream yields ``ChangeNotice/everything`` once listening again, since notices may have been missed.
    package func notices() -> AsyncStream<ChangeNotice> {
        AsyncStream { continuation in
            let task = Task {
                var lost = false
                while !Task.isCancelled {
                    do {
                        try await listen(afterLoss: lost, continuation)
                    } catch {
                        if !Task.isCancelled { logger.warning("listening for change notices failed", metadata: ["error": "\(error)"]) }
                    }
                    lost = true
                    try? await Task.sleep(for: .seconds(1))
                }
                continuation.finish()
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }

    private func listen(afterLoss lost: Bool, _ continuation: AsyncStream<ChangeNotice>.Continuation) async throws {
        try await withConnection { connection in
            let schema = try await PostgresSession(connection, self).rows(PostgresDialect.currentSchema).first?.first?.text ?? ""
            try await connection.listen(on: Self.noticeChannel) { notifications in
                if lost { continuation.yield(.everything) }
                for try await notification in notifications {
                    guard let space = notification.payload.firstIndex(of: " "), notification.payload[..<space] == schema,
                        let notice = Self.decode(String(notification.payload[notification.payload.index(after: space)...]), ignoring: self.instanceId)
                    else { continue }
                    continuation.yield(notice)
                }
            }
        }
    }

    static func encode(_ notice: ChangeNotice, from instance: String) -> JSON {
        switch notice {
        case .schema(let className): ["from": .string(instance), "kind": "schema", "class": .string(className)]
        case .sessions: ["from": .string(instance), "kind": "sessions"]
        case .everything: ["from": .string(instance), "kind": "everything"]
        case .objects(let change):
            [
                "from": .string(instance), "kind": "objects", "change": .string(change.kind.rawValue), "class": .string(change.className),
                "ids": .array(change.objectIds.map(JSON.string)),
            ]
        }
    }

    /// PostgreSQL refuses a payload of 8 000 bytes or more: object changes go in pieces well below that.
    static let payloadBudget = 6_000

    /// The `SELECT pg_notify(…), …` statements for the object changes of a transaction's commands (none when they
    /// changed no object). Run inside the write transaction, the notices reach the other instances when (and only
    /// if) it commits, without a transaction of their own. Consecutive changes of one kind to one class share a
    /// notice, and a statement makes at most 500 calls (a select list holds at most 1 664 entries).
    package func noticeStatements(_ commands: [WriteCommand], _ results: [Result<WriteResult, StorageError>]) -> [SQLFragment] {
        var changes: [ObjectChange] = []
        for (command, result) in zip(commands, results) {
            guard case .success(let written) = result, let change = ObjectChange(command, result: written) else { continue }
            if let last = changes.last, last.kind == change.kind, last.className == change.className {
                changes[changes.count - 1].objectIds += change.objectIds
            } else {
                changes.append(change)
            }
        }
        let payloads = changes.flatMap(Self.pieces(of:)).map { JSONWriter.string(Self.encode(.objects($0), from: instanceId)) }
        return stride(from: 0, to: payloads.count, by: 500).map { start in
            PostgresDialect.notify(Self.noticeChannel, Array(payloads[start..<min(start + 500, payloads.count)]))
        }
    }

    /// The change split so that each piece's ids fit the payload budget (a class name is at most 128 characters).
    static func pieces(of change: ObjectChange) -> [ObjectChange] {
        var pieces: [ObjectChange] = []
        var current: [String] = []
        var size = 0
        for id in change.objectIds {
            if size + id.utf8.count + 3 > payloadBudget - 300, !current.isEmpty {
                pieces.append(ObjectChange(kind: change.kind, className: change.className, objectIds: current))
                current = []
                size = 0
            }
            current.append(id)
            size += id.utf8.count + 3
        }
        if !current.isEmpty { pieces.append(ObjectChange(kind: change.kind, className: change.className, objectIds: current)) }
        return pieces
    }

    /// The notice in a payload, unless this instance sent it or it is malformed.
    static func decode(_ payload: String, ignoring instance: String) -> ChangeNotice? {
        guard let json = try? JSONParser.parse(payload), json["from"]?.stringValue != instance else { return nil }
        switch json["kind"]?.stringValue {
        case "schema": return json["class"]?.stringValue.map { .schema(className: $0) }
        case "sessions": return .sessions
        case "everything": return .everything
        case "objects":
            guard let kind = json["change"]?.stringValue.flatMap(ObjectChange.Kind.init(rawValue:)), let className = json["class"]?.stringValue,
                let ids = json["ids"]?.arrayValue?.compactMap(\.stringValue)
            else { return nil }
            return .objects(ObjectChange(kind: kind, className: className, objectIds: ids))
        default: return nil
        }
    }
}
