import CirrusModel
import CirrusSQL
import CirrusStorage

/// The writes of one transaction on one connection.
final class WriteTransaction<Driver: SQLDriver> {
    let store: SQLStore<Driver>
    let session: Driver.Session
    /// Tables created in this transaction, recorded in the store's directory only after commit.
    private(set) var createdTables: [String: String] = [:]
    /// The object changes of the commands that succeeded, for the change log.
    private(set) var changes: [ChangeRecord] = []

    init(store: SQLStore<Driver>, session: Driver.Session) {
        self.store = store
        self.session = session
    }

    var dialect: Driver.Dialect { store.driver.dialect }
    var registry: RegistryStatements { RegistryStatements(dialect: dialect) }

    /// Runs one command in a savepoint: its failure rolls back its writes (tables it created included), not the
    /// transaction's others.
    /// - Throws: when the savepoint itself fails: the command's failure when the database ended the whole transaction
    ///   with it (SQLite does on an interrupt), else the savepoint's.
    func runInSavepoint(_ command: WriteCommand) async throws -> Result<WriteResult, StorageError> {
        let (tablesBefore, changesBefore) = (createdTables, changes.count)
        try await session.execute(SavepointStatements.begin)
        let result = await run(command)
        if case .failure(let failure) = result {
            do {
                try await session.execute(SavepointStatements.rollback)
            } catch {
                throw failure
            }
            createdTables = tablesBefore
            changes.removeSubrange(changesBefore...)
        } else {
            try await session.execute(SavepointStatements.release)
        }
        return result
    }

    /// Runs one command; when it fails, the caller rolls the transaction back.
    func run(_ command: WriteCommand) async -> Result<WriteResult, StorageError> {
        do {
            switch command {
            case .insert(let insert): return .success(.inserted(try await run(insert)))
            case .update(let update): return .success(.updated(try await run(update)))
            case .delete(let delete): return .success(.deleted(try await run(delete)))
            case .account(let write):
                try await runAccountWrites([write])
                return .success(.account)
            }
        } catch {
            return .failure(storageError(error))
        }
    }

    /// The storage error of what a write threw.
    private func storageError(_ error: any Error) -> StorageError {
        if let error = error as? StorageError { return error }
        if let error = error as? APIError { return .refused(error) }
        if let refusal = store.driver.refusal(error) { return .refused(refusal) }
        return store.driver.writeFailure(error)
    }

    private func runAccountWrites(_ writes: [AccountWrite]) async throws {
        for write in writes {
            for statement in AccountWriter.statements(write, dialect: dialect) { try await session.execute(statement) }
        }
    }

    private func run(_ insert: WriteCommand.Insert) async throws -> StoredObject {
        let object = insert.object
        let text = JSONWriter.string(.object(object.fields))
        guard text.utf8.count <= insert.maximumSize else {
            throw StorageError.objectTooLarge(size: text.utf8.count, limit: insert.maximumSize)
        }
        let table = try await ensureTable(for: object.className)
        try await register(insert.newFields, in: object.className)
        let statements = ObjectStatements(dialect: dialect, table: table)
        try await session.execute(statements.insert(
            id: object.objectId, createdAt: object.createdAt, updatedAt: object.updatedAt, acl: object.acl, dataText: text
        ))
        for (field, targets) in insert.relations where !targets.isEmpty {
            try await session.execute(registry.addMembers(owner: object.className, field: field, objectId: object.objectId, targets: targets))
        }
        try await runAccountWrites(insert.accountWrites)
        if let fields = insert.searchFields {
            try await index(object, table: table, fields: fields)
        }
        try await record(.created(object), afterHook: insert.afterHook)
        return object
    }

    private func run(_ update: WriteCommand.Update) async throws -> StoredObject {
        guard let table = try await table(for: update.className) else {
            throw StorageError.objectNotFound(className: update.className, objectId: update.objectId)
        }
        try await register(update.newFields, in: update.className)
        let aliases = AliasCounter()
        let document = UpdateCompiler(dialect: dialect, schema: update.schema, aliases: aliases).document(after: update.changes.operations)
        let compiler = try conditionCompiler(update.className, table: table, schema: update.schema, condition: update.condition, aliases: aliases, readers: update.readers)
        let condition = Self.restricted(update.condition.map(compiler.compileReadable), to: compiler.writable(by: update.writers))
        let statements = ObjectStatements(dialect: dialect, table: table)
        // The object before the update, for the change log: read and locked by the update itself where the dialect
        // can, else read first (SQLite's one writer keeps it unchanged until the update).
        let priorInStatement = dialect.rowLockClause != nil
        var prior = priorInStatement ? nil : try await session.rows(statements.select(ids: [update.objectId])).first
        let statement = statements.update(
            id: update.objectId, document: document, updatedAt: update.updatedAt, acl: update.changes.acl.map { $0?.wire }, condition: condition,
            returningPrior: priorInStatement
        )
        guard let row = try await session.rows(statement).first else {
            throw try await missOrMismatch(statements, update.className, update.objectId, writers: update.writers)
        }
        if priorInStatement { prior = Array(row.dropFirst(5)) }
        let object = try StoredRow.decode(row, className: update.className)
        guard let prior else { throw StorageError.database("the prior state of an updated \(update.className) was not read") }
        let before = try StoredRow.decode(prior, className: update.className).object
        if object.encodedSize > update.maximumSize {
            throw StorageError.objectTooLarge(size: object.encodedSize, limit: update.maximumSize)
        }
        for (field, added, removed) in update.changes.relationOperations {
            if !added.isEmpty {
                try await session.execute(registry.addMembers(owner: update.className, field: field, objectId: update.objectId, targets: added))
            }
            if !removed.isEmpty {
                try await session.execute(registry.removeMembers(owner: update.className, field: field, objectId: update.objectId, targets: removed))
            }
        }
        try await runAccountWrites(update.accountWrites)
        if let fields = update.schema?.options.searchFields, update.changes.operations.contains(where: { fields.contains($0.0.root) }) {
            try await index(object.object, table: table, fields: fields)
        }
        try await record(.updated(from: before, to: object.object, changes: update.changes), afterHook: update.afterHook)
        return object.object
    }

    /// The compiler of a write's condition over the class's own table (which a `$text` searches the index of); a
    /// `$text` on a field outside the index is refused.
    private func conditionCompiler(
        _ className: String, table: String, schema: ClassSchema?, condition: Condition?, aliases: AliasCounter = AliasCounter(), readers: [String]?
    ) throws -> ConditionCompiler {
        try condition?.checkTextSearchable(in: className) { $0 == className ? schema : nil }
        let tables = ClassTables([className: ClassTables.Entry(table: table, schema: schema)])
        return ConditionCompiler(dialect: dialect, schema: schema, aliases: aliases, className: className, tables: tables, readers: readers)
    }

    private func run(_ delete: WriteCommand.Delete) async throws -> [String] {
        guard let table = try await table(for: delete.className) else {
            throw StorageError.objectNotFound(className: delete.className, objectId: delete.objectIds.first ?? "")
        }
        let statements = ObjectStatements(dialect: dialect, table: table)
        let compiler = try conditionCompiler(delete.className, table: table, schema: delete.schema, condition: delete.condition, readers: delete.readers)
        let condition = Self.restricted(delete.condition.map(compiler.compileReadable), to: compiler.writable(by: delete.writers))
        let removed = try await session.rows(statements.delete(ids: delete.objectIds, condition: condition))
            .map { try StoredRow.decode($0, className: delete.className).object }
        let deleted = removed.map(\.objectId)
        if deleted.isEmpty, delete.objectIds.count == 1 {
            throw try await missOrMismatch(statements, delete.className, delete.objectIds[0], writers: delete.writers)
        }
        if !deleted.isEmpty {
            if let fields = delete.schema?.options.searchFields {
                for statement in SearchStatements(dialect: dialect, table: table, fields: fields).remove(ids: deleted) {
                    try await session.execute(statement)
                }
            }
            try await session.execute(registry.removeAllMembers(owner: delete.className, objectIds: deleted))
            if delete.className == InboxKey.statusClass { try await session.execute(InboxStatements(dialect: dialect).remove(statusIds: deleted)) }
            for statement in AccountStatements(dialect: dialect).deletingAccounts(of: delete.className, userIds: deleted) {
                try await session.execute(statement)
            }
        }
        for object in removed { try await record(.deleted(object), afterHook: delete.afterHook) }
        return deleted
    }

    /// Replaces the object's entry in its class's search index, in this transaction.
    private func index(_ object: StoredObject, table: String, fields: [String]) async throws {
        for statement in SearchStatements(dialect: dialect, table: table, fields: fields).upsert(id: object.objectId, document: object.fields) {
            try await session.execute(statement)
        }
    }

    /// Adds a command's change to the change log's records and queues the after-hook call it owes, in this
    /// transaction: a rollback drops both.
    private func record(_ change: ChangeRecord, afterHook: AfterHookRequest?) async throws {
        changes.append(change)
        guard let afterHook else { return }
        try await session.execute(HookCallStatements(dialect: dialect).insert(
            hook: afterHook.hook, className: change.className, objectId: change.objectId, object: QueuedHookCall.object(of: change),
            userId: afterHook.userId, dueAt: .now()
        ))
    }

    /// A write's condition, restricted to the objects its writers may write.
    static func restricted(_ condition: SQLFragment?, to permission: SQLFragment?) -> SQLFragment? {
        guard let permission else { return condition }
        guard let condition else { return permission }
        return [condition, permission].combined("AND")
    }

    /// After a write matched no row: the object is missing, its ACL refuses the writers, or it failed the condition.
    private func missOrMismatch(
        _ statements: ObjectStatements, _ className: String, _ objectId: String, writers: [String]?
    ) async throws -> StorageError {
        if try await session.rows(statements.exists(id: objectId)).isEmpty { return .objectNotFound(className: className, objectId: objectId) }
        if let permission = ConditionCompiler(dialect: dialect, schema: nil).writable(by: writers),
            try await session.rows(statements.exists(id: objectId, where: permission)).isEmpty
        {
            return .writeDenied
        }
        return .conditionNotMatched
    }

    /// The table of a class, or `nil`. Tables created by this transaction come first: they are in the registry only
    /// until a rollback, so they must not reach the store's directory before commit.
    private func table(for className: String) async throws -> String? {
        if let table = createdTables[className] { return table }
        return try await store.existingTable(for: className, session)
    }

    /// The table of a class, created (with its registry entry) when this is the class's first write. Where several
    /// processes share the database, the dialect's class lock makes concurrent first writes wait for the one that
    /// creates the class, then find it in the registry.
    func ensureTable(for className: String) async throws -> String {
        if let table = try await table(for: className) { return table }
        if let lock = dialect.transactionLock("cirrus-class:" + className) {
            try await session.execute(lock)
            if let table = try await session.rows(registry.findClass(className)).first?[1].text { return table }
        }
        let taken = Set(try await session.rows(registry.allClasses).compactMap { $0[1].text })
        let table = SystemSchema.tableName(for: className, taken: taken)
        try await session.execute(registry.insertClass(className, table: table, at: .now()))
        for statement in SystemSchema.createObjectTable(dialect, table: table, className: className) {
            try await session.execute("\(raw: statement)")
        }
        createdTables[className] = table
        return table
    }

    /// Records new field types, refusing a type that conflicts with the recorded one.
    func register(_ fields: [String: FieldType], in className: String) async throws {
        guard !fields.isEmpty else { return }
        for (field, type) in fields.sorted(by: { $0.key < $1.key }) {
            try await session.execute(registry.insertField(className, field: field, type: type))
        }
        for row in try await session.rows(registry.fields(of: className)) {
            guard let field = row[1].text, let attempted = fields[field], let recorded = row[2].text.flatMap(FieldType.init(storedName:)),
                recorded != attempted
            else { continue }
            throw StorageError.typeConflict(field: field, recorded: recorded, attempted: attempted)
        }
    }
}
