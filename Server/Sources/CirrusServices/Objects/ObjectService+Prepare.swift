package import CirrusModel
package import CirrusStorage

/// Validation of writes, shared by single requests and batches.
extension ObjectService {
    /// Validates a create and builds its command.
    package func prepareCreate(_ className: String, body: JSON, options: WriteOptions, caller: Caller) async throws -> WriteCommand.Insert {
        try ClassName.validate(className)
        let schema = try await schemas.schema(of: className)
        try policy.check(.create, on: className, schema: schema, caller: caller)
        var body = body
        let skips = try HookSkips.take(from: &body, caller: caller)
        body = try await beforeSave(className, body: body, skips: skips, caller: caller)
        body = try ColumnRules(schema: schema).create(body)
        var update = try ObjectUpdate(body: body, isCreate: true, defaultOffsetMinutes: options.defaultOffsetMinutes)
        try await fileLinker.link(&update)
        if className == "_Role" { try RoleRules().checkCreate(update) }
        var accountWrites: [AccountWrite] = []
        let objectId = ObjectID.make(options.idStyle)
        if className == "_User" {
            try await AuthDataGate(validator: configuration.authDataValidator).check(update, caller: caller)
            accountWrites = try userRules.apply(to: &update, userId: objectId, caller: caller)
        }
        let planner = WritePlanner(className: className, schema: schema, configuration: configuration)
        var command = try planner.insert(update, options: options, now: Timestamp.now())
        try policy.checkWrite(update, newFields: command.newFields, schema: schema, caller: caller)
        command.object.objectId = objectId
        if update.acl == nil, let defaultACL = schema?.options.defaultACL { command.object.acl = defaultACL.wire }
        command.accountWrites = accountWrites
        command.afterHook = try await afterHook(.afterSave(className), skips: skips, caller: caller)
        return command
    }

    /// The insert of a `_File` row for an upload: the class permission for create applies (the object API refuses
    /// `_File` creates), and the class's default ACL.
    func prepareFileRow(body: JSON, metaData: Value, caller: Caller) async throws -> WriteCommand.Insert {
        let schema = try await schemas.schema(of: "_File")
        try policy.checkClassPermission(.create, on: "_File", schema: schema, caller: caller)
        var update = try ObjectUpdate(body: body, isCreate: true)
        update.set("metaData", .set(metaData))
        var command = try WritePlanner(className: "_File", schema: schema, configuration: configuration)
            .insert(update, options: WriteOptions(idStyle: .hex24), now: Timestamp.now())
        if update.acl == nil, let defaultACL = schema?.options.defaultACL { command.object.acl = defaultACL.wire }
        return command
    }

    /// Validates an update and builds its command; also returns the top-level keys it changes.
    /// - Throws: ``APIError`` ``APIError/Reason/classNotFound`` when the class does not exist.
    package func prepareUpdate(
        _ className: String, objectId: String, body: JSON, condition: Condition?, options: WriteOptions, caller: Caller
    ) async throws -> (WriteCommand.Update, [String]) {
        try ClassName.validate(className)
        try Self.checkObjectId(objectId)
        if className == "_File" { throw APIError(.immutableField, "Files do not change after their upload.") }
        let recorded = try await schemas.schema(of: className)
        try policy.check(.update, on: className, objectId: objectId, schema: recorded, caller: caller)
        if let condition { try await authorizeNaming(className, schema: recorded, condition: condition, sorting: [], caller: caller) }
        var body = body
        let skips = try HookSkips.take(from: &body, caller: caller)
        var update = try ObjectUpdate(body: body, isCreate: false, defaultOffsetMinutes: options.defaultOffsetMinutes)
        let hooked = try await beforeUpdate(className, objectId: objectId, body: body, skips: skips, caller: caller)
        try ColumnRules(schema: recorded).checkUpdate(hooked)
        if hooked != body { update = try ObjectUpdate(body: hooked, isCreate: false, defaultOffsetMinutes: options.defaultOffsetMinutes) }
        try await fileLinker.link(&update)
        let accountWrites = className == "_User" ? try await prepareUserUpdate(&update, userId: objectId, caller: caller) : []
        if className == "_Role" {
            // The name is read with the caller's rights: a role it may not read has no name to compare with, so the
            // answer to a name sent in an update cannot tell a right guess from a wrong one.
            let stored = try await readable(className, objectId: objectId, caller: caller).first
            try RoleRules().checkUpdate(update, storedName: stored?.fields["name"]?.stringValue)
        }
        guard let schema = try await schemas.schema(of: className) else { throw Self.classNotFound(className) }
        let planner = WritePlanner(className: className, schema: schema, configuration: configuration)
        var command = try planner.update(objectId, update, condition: condition, now: Timestamp.now())
        try policy.checkWrite(update, newFields: command.newFields, schema: schema, caller: caller)
        command.writers = caller.writers
        command.readers = caller.readers
        command.accountWrites = accountWrites
        command.afterHook = try await afterHook(.afterUpdate(className), skips: skips, caller: caller)
        var keys: [String] = []
        for (path, _) in update.operations where !keys.contains(path.root) { keys.append(path.root) }
        return (command, keys)
    }

    /// Validates a delete and builds its command.
    /// `skips` are the hooks the request asked to skip (``HookSkips/take(from:caller:)`` of its body).
    package func prepareDelete(
        _ className: String, objectIds: [String], condition: Condition?, skips: HookSkips = .none, caller: Caller
    ) async throws -> WriteCommand.Delete {
        try ClassName.validate(className)
        guard !objectIds.isEmpty else { throw APIError(.missingObjectId, "An objectId is required.") }
        let schema = try await schemas.schema(of: className)
        for id in objectIds {
            try Self.checkObjectId(id)
            try policy.check(.delete, on: className, objectId: id, schema: schema, caller: caller)
        }
        if let condition { try await authorizeNaming(className, schema: schema, condition: condition, sorting: [], caller: caller) }
        try await beforeDelete(className, objectIds: objectIds, skips: skips, caller: caller)
        var command = WriteCommand.Delete(
            className: className, objectIds: objectIds, condition: condition, schema: schema, writers: caller.writers, readers: caller.readers
        )
        command.afterHook = try await afterHook(.afterDelete(className), skips: skips, caller: caller)
        return command
    }

    /// The rules of a user update: third-party links merged and checked, the password moved to the account tables
    /// (revoking the user's other sessions when the app says so), server-kept fields dropped.
    private func prepareUserUpdate(_ update: inout ObjectUpdate, userId: String, caller: Caller) async throws -> [AccountWrite] {
        let convertsAnonymous = !update.operations(on: "username").isEmpty && !update.operations(on: "password").isEmpty
        try await AuthDataLinks(objects: self).apply(to: &update, convertsAnonymous: convertsAnonymous, caller: caller)
        var writes = try userRules.apply(to: &update, userId: userId, caller: caller)
        if !writes.isEmpty, configuration.accounts.revokeSessionsOnPasswordChange {
            writes.append(.revokeSessions(userId: userId, kind: nil, keeping: caller.isUser(userId) ? caller.sessionToken : nil))
        }
        return writes
    }

    var fileLinker: FileLinker {
        FileLinker(store: store, schemas: schemas, fileURLBase: configuration.fileURLBase)
    }

    var userRules: UserRules {
        UserRules(hasher: PasswordHasher(cost: configuration.accounts.passwordCost))
    }

    static func checkObjectId(_ id: String) throws(APIError) {
        guard ObjectID.isAcceptable(id) else { throw APIError(.missingObjectId, "Invalid objectId '\(id)'.") }
    }
}
