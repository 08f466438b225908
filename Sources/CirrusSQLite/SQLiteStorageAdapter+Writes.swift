import CirrusModel
import CirrusSQL
import CirrusSQLAdapter
import CirrusStorage
import GRDB

extension SQLiteStorageAdapter {
    public func perform(_ commands: [WriteCommand], atomically: Bool) async throws -> [Result<WriteResult, StorageError>] {
        do {
            let (results, created) = try await pool.write { db in
                let session = WriteSession(adapter: self, db: db)
                var results: [Result<WriteResult, StorageError>] = []
                var failed = false
                for command in commands {
                    if failed {
                        results.append(.failure(.rolledBack))
                        continue
                    }
                    let result = session.runInSavepoint(command)
                    if case .failure = result, atomically { failed = true }
                    results.append(result)
                }
                if failed { throw AtomicBatchFailed(results: results) }
                return (results, session.createdTables)
            }
            for (className, table) in created { tables.record(className: className, table: table) }
            return results
        } catch let failure as AtomicBatchFailed {
            return failure.results.map { result in
                if case .success = result { return .failure(.rolledBack) }
                return result
            }
        }
    }
}

/// Thrown inside the write closure so that GRDB rolls the whole transaction back.
private struct AtomicBatchFailed: Error {
    let results: [Result<WriteResult, StorageError>]
}

/// The writes of one transaction.
final class WriteSession {
    let adapter: SQLiteStorageAdapter
    let db: Database
    /// Tables created in this transaction, recorded in the directory only after commit.
    var createdTables: [String: String] = [:]

    init(adapter: SQLiteStorageAdapter, db: Database) {
        self.adapter = adapter
        self.db = db
    }

    var dialect: SQLiteDialect { adapter.dialect }
    var registry: RegistryStatements { RegistryStatements(dialect: dialect) }

    /// Runs one command in a savepoint; a failure rolls back its writes, tables it created included.
    func runInSavepoint(_ command: WriteCommand) -> Result<WriteResult, StorageError> {
        var outcome: Result<WriteResult, StorageError> = .failure(.database("not run"))
        let tablesBefore = createdTables
        defer { if case .failure = outcome { createdTables = tablesBefore } }
        do {
            try db.inSavepoint {
                outcome = .success(try run(command))
                return .commit
            }
        } catch let error as StorageError {
            outcome = .failure(error)
        } catch let error as DatabaseError {
            outcome = .failure(Self.storageError(error))
        } catch let error as APIError {
            outcome = .failure(.refused(error))
        } catch {
            outcome = .failure(.database(String(describing: error)))
        }
        return outcome
    }

    static func storageError(_ error: DatabaseError) -> StorageError {
        if let refusal = SQLiteStorageAdapter.refusal(error) { return .refused(refusal) }
        if error.extendedResultCode == .SQLITE_CONSTRAINT_PRIMARYKEY { return .duplicateObjectId(error.message ?? "") }
        if error.extendedResultCode == .SQLITE_CONSTRAINT_UNIQUE {
            return .duplicateValue(field: SystemSchema.uniqueField(inMessage: error.message ?? "") ?? "")
        }
        return .database(error.description)
    }

    private func run(_ command: WriteCommand) throws -> WriteResult {
        switch command {
        case .insert(let insert): return .inserted(try run(insert))
        case .update(let update): return .updated(try run(update))
        case .delete(let delete): return .deleted(try run(delete))
        case .account(let write):
            try runAccountWrites([write])
            return .account
        }
    }

    private func runAccountWrites(_ writes: [AccountWrite]) throws {
        for write in writes {
            for statement in AccountWriter.statements(write, dialect: dialect) { try adapter.execute(db, statement) }
        }
    }

    private func run(_ insert: WriteCommand.Insert) throws -> StoredObject {
        let object = insert.object
        let text = JSONWriter.string(.object(object.fields))
        guard text.utf8.count <= insert.maximumSize else {
            throw StorageError.objectTooLarge(size: text.utf8.count, limit: insert.maximumSize)
        }
        let table = try ensureTable(for: object.className)
        try register(insert.newFields, in: object.className)
        let statements = ObjectStatements(dialect: dialect, table: table)
        try adapter.execute(db, statements.insert(
            id: object.objectId, createdAt: object.createdAt, updatedAt: object.updatedAt, acl: object.acl, dataText: text
        ))
        for (field, targets) in insert.relations where !targets.isEmpty {
            try adapter.execute(db, registry.addMembers(owner: object.className, field: field, objectId: object.objectId, targets: targets))
        }
        try runAccountWrites(insert.accountWrites)
        return object
    }

    private func run(_ update: WriteCommand.Update) throws -> StoredObject {
        guard let table = try table(for: update.className) else {
            throw StorageError.objectNotFound(className: update.className, objectId: update.objectId)
        }
        try register(update.newFields, in: update.className)
        let aliases = AliasCounter()
        let document = UpdateCompiler(dialect: dialect, schema: update.schema, aliases: aliases)
            .document(after: update.changes.operations)
        let compiler = ConditionCompiler(dialect: dialect, schema: update.schema, aliases: aliases, readers: update.readers)
        let condition = Self.restricted(update.condition.map(compiler.compileReadable), to: compiler.writable(by: update.writers))
        let statements = ObjectStatements(dialect: dialect, table: table)
        let statement = statements.update(
            id: update.objectId, document: document, updatedAt: update.updatedAt, acl: update.changes.acl.map { $0?.wire },
            condition: condition
        )
        guard let row = try adapter.rows(db, statement).first else {
            throw try missOrMismatch(statements, update.className, update.objectId, writers: update.writers)
        }
        let object = try StoredRow.decode(row.sqlValues, className: update.className)
        if object.encodedSize > update.maximumSize {
            throw StorageError.objectTooLarge(size: object.encodedSize, limit: update.maximumSize)
        }
        for (field, added, removed) in update.changes.relationOperations {
            if !added.isEmpty {
                try adapter.execute(db, registry.addMembers(owner: update.className, field: field, objectId: update.objectId, targets: added))
            }
            if !removed.isEmpty {
                try adapter.execute(db, registry.removeMembers(owner: update.className, field: field, objectId: update.objectId, targets: removed))
            }
        }
        try runAccountWrites(update.accountWrites)
        return object.object
    }

    private func run(_ delete: WriteCommand.Delete) throws -> [String] {
        guard let table = try table(for: delete.className) else {
            throw StorageError.objectNotFound(className: delete.className, objectId: delete.objectIds.first ?? "")
        }
        let statements = ObjectStatements(dialect: dialect, table: table)
        let compiler = ConditionCompiler(dialect: dialect, schema: delete.schema, readers: delete.readers)
        let condition = Self.restricted(delete.condition.map(compiler.compileReadable), to: compiler.writable(by: delete.writers))
        let deleted: [String] = try adapter.rows(db, statements.delete(ids: delete.objectIds, condition: condition)).map { $0[0] }
        if deleted.isEmpty, delete.objectIds.count == 1 {
            throw try missOrMismatch(statements, delete.className, delete.objectIds[0], writers: delete.writers)
        }
        if !deleted.isEmpty {
            try adapter.execute(db, registry.removeAllMembers(owner: delete.className, objectIds: deleted))
            if delete.className == "_User" {
                for statement in AccountStatements(dialect: dialect).deleteAccounts(userIds: deleted) { try adapter.execute(db, statement) }
            }
        }
        return deleted
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
    ) throws -> StorageError {
        if try adapter.rows(db, statements.exists(id: objectId)).isEmpty { return .objectNotFound(className: className, objectId: objectId) }
        if let permission = ConditionCompiler(dialect: dialect, schema: nil).writable(by: writers),
            try adapter.rows(db, statements.exists(id: objectId, where: permission)).isEmpty
        {
            return .writeDenied
        }
        return .conditionNotMatched
    }

    /// The table of a class, or `nil`. Tables created by this transaction come first: they are in the
    /// registry only until a rollback, so they must not reach the adapter's directory before commit.
    private func table(for className: String) throws -> String? {
        if let table = createdTables[className] { return table }
        return try adapter.existingTable(for: className, db)
    }

    /// The table of a class, created (with its registry entry) when this is the class's first write.
    func ensureTable(for className: String) throws -> String {
        if let table = try table(for: className) { return table }
        let taken = Set(try adapter.rows(db, registry.allClasses).map { $0[1] as String })
        let table = SystemSchema.tableName(for: className, taken: taken)
        try adapter.execute(db, registry.insertClass(className, table: table, at: .now()))
        for statement in SystemSchema.createObjectTable(dialect, table: table, className: className) { try db.execute(sql: statement) }
        createdTables[className] = table
        return table
    }

    /// Records new field types, refusing a type that conflicts with the recorded one.
    func register(_ fields: [String: FieldType], in className: String) throws {
        guard !fields.isEmpty else { return }
        for (field, type) in fields.sorted(by: { $0.key < $1.key }) {
            try adapter.execute(db, registry.insertField(className, field: field, type: type))
        }
        for row in try adapter.rows(db, registry.fields(of: className)) {
            let field: String = row[1]
            guard let attempted = fields[field], let recorded = FieldType(storedName: row[2]), recorded != attempted else { continue }
            throw StorageError.typeConflict(field: field, recorded: recorded, attempted: attempted)
        }
    }
}
