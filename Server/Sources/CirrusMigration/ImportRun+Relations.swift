import CirrusModel
import CirrusServices
import CirrusStorage

extension ImportRun {
    /// A `_Session` row (Parse, or Cirrus's own export): a revocable session of its user.
    func decodeSession(_ members: [String: JSON]) throws -> StoredSession {
        guard let token = members["sessionToken"]?.stringValue, !token.isEmpty else {
            throw APIError(.invalidParameter, "A session needs a sessionToken.")
        }
        guard case .object(let user)? = members["user"], let userId = user["objectId"]?.stringValue else {
            throw APIError(.invalidParameter, "A session needs a user pointer.")
        }
        let createdAt = try decoder.date(members["createdAt"], field: "createdAt") ?? Timestamp.now()
        let expiresAt = try decoder.date(members["expiresAt"], field: "expiresAt")
        let sessionId = members["objectId"]?.stringValue.flatMap { ObjectID.isAcceptable($0) ? $0 : nil } ?? ObjectID.make(.alphanumeric10)
        return StoredSession(
            token: token, sessionId: sessionId, userId: userId, kind: .revocable, createdAt: createdAt, expiresAt: expiresAt,
            installationId: members["installationId"]?.stringValue, createdWith: members["createdWith"]
        )
    }

    /// Creates the batch's sessions, skipping tokens that exist; a session of a user not in the store fails.
    func writeSessions(_ batch: PendingBatch) async throws {
        let userIds = Array(Set(batch.sessions.map(\.session.userId)))
        let users = Set(try await store.fetch(className: "_User", ids: userIds).map(\.objectId))
        var commands: [(line: Int, session: StoredSession)] = []
        for (line, session) in batch.sessions {
            if try await store.session(token: session.token) != nil {
                summary.count("_Session") { $0.skipped += 1 }
            } else if !users.contains(session.userId), !options.dryRun {
                fail(batch.entry, line: line, objectId: session.sessionId, reason: "The session's user '\(session.userId)' does not exist.")
            } else {
                commands.append((line, session))
            }
        }
        if options.dryRun {
            summary.count("_Session") { $0.imported += commands.count }
            return
        }
        guard !commands.isEmpty else { return }
        let results = try await perform(commands.map { .account(.createSession($0.session)) })
        for (command, result) in zip(commands, results) {
            switch result {
            case .success: summary.count("_Session") { $0.imported += 1 }
            case .failure(let error): fail(batch.entry, line: command.line, objectId: command.session.sessionId, reason: Self.reason(error, "_Session"))
            }
        }
    }

    /// Adds the batch's relation members to their owners (one master update per owner, keeping its updatedAt), skipping
    /// members already there.
    func writeMembers(_ batch: PendingBatch) async throws {
        guard case .join(let field, let owningClass) = batch.entry.kind else { return }
        let className = batch.entry.kind.summaryClass
        let schema = try await objects.schemas.schema(of: owningClass)
        guard let target = schema?.type(of: field)?.targetClass ?? schemaRelations[owningClass]?[field] else {
            for member in batch.members {
                fail(
                    batch.entry, line: member.line, objectId: member.owningId,
                    reason: "The target class of the relation '\(field)' of \(owningClass) is unknown: it is neither in _schema.json nor in the owning rows."
                )
            }
            return
        }
        if options.dryRun {
            summary.count(className) { $0.imported += batch.members.count }
            return
        }
        var byOwner: [String: [(line: Int, relatedId: String)]] = [:]
        for member in batch.members { byOwner[member.owningId, default: []].append((member.line, member.relatedId)) }
        let owners = Dictionary(
            try await store.fetch(className: owningClass, ids: Array(byOwner.keys)).map { ($0.objectId, $0) }, uniquingKeysWith: { first, _ in first }
        )
        var newFields: [String: FieldType] = [:]
        if schema?.type(of: field) == nil { newFields[field] = .relation(targetClass: target) }
        var commands: [WriteCommand] = []
        var counts: [(owner: String, lines: [Int])] = []
        for (ownerId, members) in byOwner.sorted(by: { $0.key < $1.key }) {
            guard let owner = owners[ownerId] else {
                for member in members {
                    fail(batch.entry, line: member.line, objectId: ownerId, reason: "The owning object \(owningClass) '\(ownerId)' does not exist.")
                }
                continue
            }
            let present = Set(try await store.relationTargets(className: owningClass, objectId: ownerId, field: field).map(\.objectId))
            var added: [Pointer] = []
            var lines: [Int] = []
            for member in members {
                if present.contains(member.relatedId) || added.contains(where: { $0.objectId == member.relatedId }) {
                    summary.count(className) { $0.skipped += 1 }
                } else {
                    added.append(Pointer(className: target, objectId: member.relatedId))
                    lines.append(member.line)
                }
            }
            guard !added.isEmpty else { continue }
            let update = ObjectUpdate(operations: [(FieldPath(field: field), .relation(add: added, remove: []))])
            commands.append(
                .update(
                    WriteCommand.Update(
                        className: owningClass, objectId: ownerId, updatedAt: owner.updatedAt, changes: update, condition: nil, schema: schema,
                        newFields: newFields, maximumSize: objects.configuration.maximumObjectSize
                    )
                )
            )
            counts.append((ownerId, lines))
        }
        guard !commands.isEmpty else { return }
        let results = try await perform(commands)
        for (count, result) in zip(counts, results) {
            switch result {
            case .success: summary.count(className) { $0.imported += count.lines.count }
            case .failure(let error):
                for line in count.lines { fail(batch.entry, line: line, objectId: count.owner, reason: Self.reason(error, owningClass)) }
            }
        }
        objects.schemas.invalidate(owningClass)
    }
}
