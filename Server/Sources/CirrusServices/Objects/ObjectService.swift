import CirrusConcurrency
package import CirrusModel
package import CirrusStorage
package import Logging

/// Creating, reading, updating and deleting objects: validation, schema, then one store call.
///
/// The service is dialect-free: it takes parsed JSON and typed options and returns stored objects;
/// the HTTP layer decides how they look on the wire.
package struct ObjectService: Sendable {
    package let store: any StorageAdapter
    package let schemas: SchemaCache
    package let configuration: ServiceConfiguration
    package let logger: Logger
    /// Decides what a caller may do to a class; the ACL part runs in SQL through the caller's readers and writers.
    package let policy = AccessPolicy()
    /// Hides fields a caller may not see from every object returned, and gives files their URL.
    package var visibility: FieldVisibility { FieldVisibility(fileURLBase: configuration.fileURLBase) }
    /// The users and roles of recently seen session tokens.
    package let sessionCache = SessionCache()
    /// The committed object changes of this instance and of the others sharing its database.
    package var changes: ChangeLog { store.changeLog }

    package init(store: any StorageAdapter, schemas: SchemaCache, configuration: ServiceConfiguration, logger: Logger) {
        self.store = store
        self.schemas = schemas
        self.configuration = configuration
        self.logger = logger
    }

    /// Creates an object from a request body.
    /// - Throws: ``APIError`` for an invalid class, body or value, a type mismatch, or an oversized object.
    /// - Returns: the object as stored, with only the fields the caller may read.
    package func create(_ className: String, body: JSON, options: WriteOptions, caller: Caller) async throws -> StoredObject {
        let command = try await prepareCreate(className, body: body, options: options, caller: caller)
        return try await visible(try await performOne(.insert(command), className: className).object, to: caller)
    }

    /// Updates an object; with `condition`, only if the stored object satisfies it (else 305).
    /// - Throws: ``APIError``: ``APIError/Reason/objectNotFound`` when the object is missing,
    ///   ``APIError/Reason/conditionNotMatched`` when the condition fails, and validation failures.
    package func update(
        _ className: String, objectId: String, body: JSON, condition: Condition?, options: WriteOptions, caller: Caller
    ) async throws -> UpdateOutcome {
        let (command, keys) = try await prepareUpdate(className, objectId: objectId, body: body, condition: condition, options: options, caller: caller)
        let object = try await performOne(.update(command), className: className).object
        return UpdateOutcome(object: try await visible(object, to: caller), changedKeys: keys)
    }

    /// Runs commands in one transaction (all or nothing when `atomically`), records each committed one, and
    /// returns the objects written with only the fields each command's caller may read.
    package func commit(_ commands: [(command: WriteCommand, caller: Caller)], atomically: Bool) async throws -> [Result<WriteResult, StorageError>] {
        var results = try await store.perform(commands.map(\.command), atomically: atomically)
        for (index, result) in results.enumerated() {
            guard case .success(let written) = result else { continue }
            await record(commands[index].command, result: written)
            switch written {
            case .inserted(let object): results[index] = .success(.inserted(try await visible(object, to: commands[index].caller)))
            case .updated(let object): results[index] = .success(.updated(try await visible(object, to: commands[index].caller)))
            case .deleted, .account: break
            }
        }
        return results
    }

    /// `object` with only the fields `caller` may read (the reply of a write).
    func visible(_ object: StoredObject, to caller: Caller) async throws -> StoredObject {
        var object = object
        visibility.redactWritten(&object, schema: try await schemas.schema(of: object.className), for: caller)
        return object
    }

    /// Deletes objects by id; with `condition`, only those that satisfy it.
    /// - Returns: the ids that were deleted.
    /// - Throws: ``APIError`` ``APIError/Reason/objectNotFound`` (single id, missing) or
    ///   ``APIError/Reason/conditionNotMatched``.
    @discardableResult
    package func delete(_ className: String, objectIds: [String], condition: Condition?, caller: Caller) async throws -> [String] {
        let command = try await prepareDelete(className, objectIds: objectIds, condition: condition, caller: caller)
        guard case .deleted(let ids) = try await performOne(.delete(command), className: className).result else { return [] }
        return ids
    }

    /// Commits one prepared command (from ``prepareCreate(_:body:options:caller:)``, ``prepareUpdate(_:objectId:body:condition:options:caller:)``
    /// or ``prepareDelete(_:objectIds:condition:caller:)``), as ``create(_:body:options:caller:)`` and its siblings do:
    /// the object written comes back with only the fields `caller` may read.
    /// - Throws: the command's failure as an ``APIError``.
    package func commitOne(_ command: WriteCommand, caller: Caller) async throws -> WriteResult {
        let result = try await performOne(command, className: command.className).result
        switch result {
        case .inserted(let object): return .inserted(try await visible(object, to: caller))
        case .updated(let object): return .updated(try await visible(object, to: caller))
        case .deleted, .account: return result
        }
    }

    /// Runs one command and maps its failure to an ``APIError``.
    func performOne(_ command: WriteCommand, className: String) async throws -> (object: StoredObject, result: WriteResult) {
        let results = try await store.perform([command], atomically: false)
        switch results[0] {
        case .success(let result):
            await record(command, result: result)
            return (result.object ?? StoredObject.placeholder, result)
        case .failure(let error):
            if case .database(let detail) = error { logger.error("store failure", metadata: ["detail": "\(detail)"]) }
            throw error.apiError(className: className)
        }
    }

    /// Updates the schema cache with the field types a committed command introduced, and forgets the cached
    /// sessions when the command may have changed who a session stands for; tells the other instances sharing the
    /// database to do the same. (The object change itself went to the change log in the write's transaction.)
    package func record(_ command: WriteCommand, result: WriteResult? = nil) async {
        var newFields: (className: String, fields: [String: FieldType])?
        switch command {
        case .insert(let insert): newFields = (insert.object.className, insert.newFields)
        case .update(let update): newFields = (update.className, update.newFields)
        case .delete, .account: break
        }
        if let newFields, !newFields.fields.isEmpty {
            schemas.record(newFields.fields, in: newFields.className)
            await store.announce(.schema(className: newFields.className))
        }
        if Self.changesSessions(command) {
            sessionCache.removeAll()
            await store.announce(.sessions)
        }
        // The after-hook it queued is delivered now rather than at the delivery's next look at the queue.
        if command.afterHook != nil { configuration.engine?.afterHookBell.ring() }
    }

    /// Applies another instance's notice to this process's caches.
    package func apply(_ notice: ChangeNotice) {
        switch notice {
        case .schema(let className): schemas.invalidate(className)
        case .sessions: sessionCache.removeAll()
        case .liveSubscriptions, .webhooks: break
        case .everything:
            schemas.invalidateAll()
            sessionCache.removeAll()
        }
    }

    /// Whether a command revokes sessions, or changes roles or deletes users.
    static func changesSessions(_ command: WriteCommand) -> Bool {
        func revokes(_ writes: [AccountWrite]) -> Bool {
            writes.contains {
                switch $0 {
                case .revokeSession, .revokeSessions: true
                default: false
                }
            }
        }
        switch command {
        case .insert(let insert): return insert.object.className == "_Role" || revokes(insert.accountWrites)
        case .update(let update): return update.className == "_Role" || revokes(update.accountWrites)
        case .delete(let delete): return delete.className == "_Role" || delete.className == "_User"
        case .account(let write): return revokes([write])
        }
    }

}

extension WriteResult {
    /// The object a create or update produced.
    package var object: StoredObject? {
        switch self {
        case .inserted(let object), .updated(let object): object
        case .deleted, .account: nil
        }
    }
}

extension StoredObject {
    static let placeholder = StoredObject(
        className: "", objectId: "", createdAt: Timestamp(millisecondsSince1970: 0), updatedAt: Timestamp(millisecondsSince1970: 0),
        acl: nil, fields: [:]
    )
}
