import CirrusModel
import CirrusStorage

/// Inserts, updates and deletes, with their relation rows, unique fields and account writes. Each runs on a copy of the
/// state (see ``InMemoryStore``), so a write that throws halfway leaves nothing behind.
extension InMemoryState {
    /// Runs one command; a failure is the store's error.
    mutating func run(_ command: WriteCommand) -> Result<WriteResult, StorageError> {
        do {
            switch command {
            case .insert(let insert): return .success(.inserted(try run(insert)))
            case .update(let update): return .success(.updated(try run(update)))
            case .delete(let delete): return .success(.deleted(try run(delete)))
            case .account(let write):
                try apply(write)
                return .success(.account)
            }
        } catch let error as StorageError {
            return .failure(error)
        } catch let error as APIError {
            return .failure(.refused(error))
        } catch {
            return .failure(.database(String(describing: error)))
        }
    }

    private mutating func run(_ insert: WriteCommand.Insert) throws -> StoredObject {
        let object = insert.object
        let size = object.encodedSize
        guard size <= insert.maximumSize else { throw StorageError.objectTooLarge(size: size, limit: insert.maximumSize) }
        try register(insert.newFields, in: object.className)
        guard classes[object.className]?.entries[object.objectId] == nil else { throw StorageError.duplicateObjectId(object.objectId) }
        try checkUnique(object)
        classes[object.className]?.entries[object.objectId] = InMemoryClass.Entry(object: object, sequence: nextSequence)
        nextSequence += 1
        for (field, targets) in insert.relations {
            addMembers(object.className, object.objectId, field, targets)
        }
        for write in insert.accountWrites { try apply(write) }
        record(.created(object), afterHook: insert.afterHook)
        return object
    }

    private mutating func run(_ update: WriteCommand.Update) throws -> StoredObject {
        let missing = StorageError.objectNotFound(className: update.className, objectId: update.objectId)
        guard classes[update.className] != nil else { throw missing }
        if let condition = update.condition { try checkTextSearchable(condition, in: update.className, schema: update.schema) }
        try register(update.newFields, in: update.className)
        guard let current = classes[update.className]?.entries[update.objectId]?.object else { throw missing }
        guard current.grants(.write, to: update.writers) else { throw StorageError.writeDenied }
        if let condition = update.condition, !satisfies(condition, current, schema: update.schema, readers: update.readers) {
            throw StorageError.conditionNotMatched
        }
        var changed = current
        changed.fields = try DocumentEditor.applying(update.changes.operations, to: current.fields)
        if let acl = update.changes.acl { changed.acl = acl?.wire }
        changed.updatedAt = update.updatedAt
        let size = changed.encodedSize
        guard size <= update.maximumSize else { throw StorageError.objectTooLarge(size: size, limit: update.maximumSize) }
        try checkUnique(changed)
        classes[update.className]?.entries[update.objectId]?.object = changed
        for (field, added, removed) in update.changes.relationOperations {
            addMembers(update.className, update.objectId, field, added)
            removeMembers(update.className, update.objectId, field, removed)
        }
        for write in update.accountWrites { try apply(write) }
        record(.updated(from: current, to: changed, changes: update.changes), afterHook: update.afterHook)
        return changed
    }

    private mutating func run(_ delete: WriteCommand.Delete) throws -> [String] {
        guard let stored = classes[delete.className] else {
            throw StorageError.objectNotFound(className: delete.className, objectId: delete.objectIds.first ?? "")
        }
        if let condition = delete.condition { try checkTextSearchable(condition, in: delete.className, schema: delete.schema) }
        var seen: Set<String> = []
        let deleted = delete.objectIds.filter { id in
            guard seen.insert(id).inserted, let object = stored.entries[id]?.object, object.grants(.write, to: delete.writers) else { return false }
            return delete.condition.map { satisfies($0, object, schema: delete.schema, readers: delete.readers) } ?? true
        }
        if deleted.isEmpty, delete.objectIds.count == 1 {
            throw missOrMismatch(delete.className, delete.objectIds[0], writers: delete.writers)
        }
        for object in deleted.compactMap({ stored.entries[$0]?.object }) { record(.deleted(object), afterHook: delete.afterHook) }
        remove(deleted, of: delete.className)
        if delete.className == InboxKey.statusClass {
            for key in inboxEntries.keys { inboxEntries[key]?.removeAll { deleted.contains($0.statusId) } }
        }
        return deleted
    }

    /// Adds a command's change for the change log and queues the after-hook call it owes (both dropped with the copy
    /// of the state when the write fails).
    private mutating func record(_ change: ChangeRecord, afterHook: AfterHookRequest?) {
        pendingChanges.append(change)
        guard let afterHook else { return }
        hookCalls.append(QueuedHookCall(
            id: nextHookCallId, hook: afterHook.hook, className: change.className, objectId: change.objectId,
            object: QueuedHookCall.object(of: change), userId: afterHook.userId, attempts: 0
        ))
        hookCallDue[nextHookCallId] = .now()
        nextHookCallId += 1
    }

    /// Why a single delete removed nothing: the object is missing, its ACL refuses the writers, or it failed the condition.
    private func missOrMismatch(_ className: String, _ objectId: String, writers: [String]?) -> StorageError {
        guard let object = classes[className]?.entries[objectId]?.object else { return .objectNotFound(className: className, objectId: objectId) }
        return object.grants(.write, to: writers) ? .conditionNotMatched : .writeDenied
    }

    /// Removes objects with their relation rows and, for users, their passwords, sessions and linked accounts.
    private mutating func remove(_ ids: [String], of className: String) {
        let removed = Set(ids)
        for id in ids { classes[className]?.entries[id] = nil }
        relations = relations.filter { !($0.ownerClass == className && removed.contains($0.ownerId)) }
        guard className == "_User" else { return }
        for id in ids {
            accounts[id] = nil
            links[id] = nil
        }
        sessions = sessions.filter { !removed.contains($0.value.userId) }
    }

    /// Whether the object satisfies a write's condition: it must be readable by `readers` and match.
    func satisfies(_ condition: Condition, _ object: StoredObject, schema: ClassSchema?, readers: [String]?) -> Bool {
        guard object.grants(.read, to: readers) else { return false }
        let rewritten = SchemaConditions(state: self, className: object.className, schema: schema).rewrite(condition)
        return rewritten.matches(object.subject, resolver: InMemoryResolver(state: self, readers: readers))
    }

    // MARK: Schema

    /// Creates the class if needed and records new field types, refusing one that conflicts with the recorded type.
    mutating func register(_ fields: [String: FieldType], in className: String) throws {
        var stored = classes[className] ?? InMemoryClass(schema: ClassSchema(className: className))
        for (field, type) in fields.sorted(by: { $0.key < $1.key }) {
            if let recorded = stored.schema.fields[field], recorded != type {
                throw StorageError.typeConflict(field: field, recorded: recorded, attempted: type)
            }
            stored.schema.fields[field] = type
        }
        classes[className] = stored
    }

    /// Removes fields: their types, their values in every object and their relation members.
    mutating func deleteFields(className: String, fields: [String]) throws {
        guard !fields.isEmpty else { return }
        guard var stored = classes[className] else { throw StorageError.classNotFound(className) }
        for field in fields { stored.schema.fields[field] = nil }
        for id in Array(stored.entries.keys) {
            for field in fields { stored.entries[id]?.object.fields.removeValue(forKey: field) }
        }
        classes[className] = stored
        let removed = Set(fields)
        relations = relations.filter { !($0.ownerClass == className && removed.contains($0.field)) }
    }

    // MARK: Relations

    private mutating func addMembers(_ ownerClass: String, _ ownerId: String, _ field: String, _ targets: [Pointer]) {
        for target in targets { relations.insert(RelationRow(ownerClass: ownerClass, field: field, ownerId: ownerId, target: target)) }
    }

    private mutating func removeMembers(_ ownerClass: String, _ ownerId: String, _ field: String, _ targets: [Pointer]) {
        for target in targets { relations.remove(RelationRow(ownerClass: ownerClass, field: field, ownerId: ownerId, target: target)) }
    }
}
