import CirrusModel
import CirrusSQL
import CirrusSQLAdapter
import CirrusStorage
import PostgresNIO

/// The writes of one transaction on one connection; each command runs in a savepoint.
final class PostgresWriteSession {
    let adapter: PostgresStorageAdapter
    let connection: PostgresConnection
    /// Tables created in this transaction, recorded in the directory only after commit.
    var createdTables: [String: String] = [:]

    init(adapter: PostgresStorageAdapter, connection: PostgresConnection) {
        self.adapter = adapter
        self.connection = connection
    }

    var dialect: PostgresDialect { adapter.dialect }
    var registry: RegistryStatements { RegistryStatements(dialect: dialect) }

    func rows(_ fragment: SQLFragment) async throws -> [[SQLValue]] {
        try await adapter.rows(connection, fragment)
    }

    func execute(_ fragment: SQLFragment) async throws {
        try await adapter.execute(connection, fragment)
    }

    /// Runs one command in a savepoint; a failure rolls back its writes, tables it created included.
    func runInSavepoint(_ command: WriteCommand) async -> Result<WriteResult, StorageError> {
        let tablesBefore = createdTables
        var outcome: Result<WriteResult, StorageError>
        do {
            try await execute("SAVEPOINT cirrus_command")
            outcome = .success(try await run(command))
            try await execute("RELEASE SAVEPOINT cirrus_command")
        } catch {
            outcome = .failure(Self.storageError(error))
            try? await execute("ROLLBACK TO SAVEPOINT cirrus_command")
            createdTables = tablesBefore
        }
        return outcome
    }

    /// Runs the transaction's only command without a savepoint: the caller rolls the transaction back when it fails.
    func runAlone(_ command: WriteCommand) async -> Result<WriteResult, StorageError> {
        do {
            return .success(try await run(command))
        } catch {
            return .failure(Self.storageError(error))
        }
    }

    /// The storage error of what a write threw: unique violations name the object id or the unique field.
    static func storageError(_ error: any Error) -> StorageError {
        if let error = error as? StorageError { return error }
        if let error = error as? APIError { return .refused(error) }
        guard let error = error as? PSQLError else { return .database(String(describing: error)) }
        let state = error.serverInfo?[.sqlState]
        let constraint = error.serverInfo?[.constraintName] ?? ""
        // 22P05: a \u0000 escape in a JSON string, which JSONB cannot hold; 22021: no such character in the encoding.
        if state == "22P05" || state == "22021" {
            return .unsupportedValue("strings cannot contain the NUL character (\\u0000) on PostgreSQL")
        }
        if let refusal = PostgresStorageAdapter.refusal(error) { return .refused(refusal) }
        if state == "23505" {
            if constraint.hasSuffix("_pkey") { return .duplicateObjectId(constraint) }
            return .duplicateValue(field: SystemSchema.uniqueField(inMessage: constraint) ?? "")
        }
        return .database(PostgresStorageAdapter.describe(error))
    }

    private func run(_ command: WriteCommand) async throws -> WriteResult {
        switch command {
        case .insert(let insert): return .inserted(try await run(insert))
        case .update(let update): return .updated(try await run(update))
        case .delete(let delete): return .deleted(try await run(delete))
        case .account(let write):
            try await runAccountWrites([write])
            return .account
        }
    }

    private func runAccountWrites(_ writes: [AccountWrite]) async throws {
        for write in writes {
            for statement in AccountWriter.statements(write, dialect: dialect) { try await execute(statement) }
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
        try await execute(statements.insert(
            id: object.objectId, createdAt: object.createdAt, updatedAt: object.updatedAt, acl: object.acl, dataText: text
        ))
        for (field, targets) in insert.relations where !targets.isEmpty {
            try await execute(registry.addMembers(owner: object.className, field: field, objectId: object.objectId, targets: targets))
        }
        try await runAccountWrites(insert.accountWrites)
        return object
    }

    private func run(_ update: WriteCommand.Update) async throws -> StoredObject {
        guard let table = try await table(for: update.className) else {
            throw StorageError.objectNotFound(className: update.className, objectId: update.objectId)
        }
        try await register(update.newFields, in: update.className)
        let aliases = AliasCounter()
        let document = UpdateCompiler(dialect: dialect, schema: update.schema, aliases: aliases).document(after: update.changes.operations)
        let compiler = ConditionCompiler(dialect: dialect, schema: update.schema, aliases: aliases, readers: update.readers)
        let condition = Self.restricted(update.condition.map(compiler.compileReadable), to: compiler.writable(by: update.writers))
        let statements = ObjectStatements(dialect: dialect, table: table)
        let statement = statements.update(
            id: update.objectId, document: document, updatedAt: update.updatedAt, acl: update.changes.acl.map { $0?.wire }, condition: condition
        )
        guard let row = try await rows(statement).first else {
            throw try await missOrMismatch(statements, update.className, update.objectId, writers: update.writers)
        }
        let object = try StoredRow.decode(row, className: update.className)
        if object.encodedSize > update.maximumSize {
            throw StorageError.objectTooLarge(size: object.encodedSize, limit: update.maximumSize)
        }
        for (field, added, removed) in update.changes.relationOperations {
            if !added.isEmpty {
                try await execute(registry.addMembers(owner: update.className, field: field, objectId: update.objectId, targets: added))
            }
            if !removed.isEmpty {
                try await execute(registry.removeMembers(owner: update.className, field: field, objectId: update.objectId, targets: removed))
            }
        }
        try await runAccountWrites(update.accountWrites)
        return object.object
    }

    private func run(_ delete: WriteCommand.Delete) async throws -> [String] {
        guard let table = try await table(for: delete.className) else {
            throw StorageError.objectNotFound(className: delete.className, objectId: delete.objectIds.first ?? "")
        }
        let statements = ObjectStatements(dialect: dialect, table: table)
        let compiler = ConditionCompiler(dialect: dialect, schema: delete.schema, readers: delete.readers)
        let condition = Self.restricted(delete.condition.map(compiler.compileReadable), to: compiler.writable(by: delete.writers))
        let deleted = try await rows(statements.delete(ids: delete.objectIds, condition: condition)).compactMap { $0.first?.text }
        if deleted.isEmpty, delete.objectIds.count == 1 {
            throw try await missOrMismatch(statements, delete.className, delete.objectIds[0], writers: delete.writers)
        }
        if !deleted.isEmpty {
            try await execute(registry.removeAllMembers(owner: delete.className, objectIds: deleted))
            if delete.className == "_User" {
                for statement in AccountStatements(dialect: dialect).deleteAccounts(userIds: deleted) { try await execute(statement) }
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
    ) async throws -> StorageError {
        if try await rows(statements.exists(id: objectId)).isEmpty { return .objectNotFound(className: className, objectId: objectId) }
        if let permission = ConditionCompiler(dialect: dialect, schema: nil).writable(by: writers),
            try await rows(statements.exists(id: objectId, where: permission)).isEmpty
        {
            return .writeDenied
        }
        return .conditionNotMatched
    }

    /// The table of a class, or `nil`; tables created by this transaction come first.
    private func table(for className: String) async throws -> String? {
        if let table = createdTables[className] { return table }
        return try await adapter.existingTable(for: className, connection)
    }

    /// The table of a class, created (with its registry entry) when this is the class's first write. A
    /// transaction-scoped advisory lock on the class name makes concurrent first writes (from any instance) wait
    /// for the one that creates it, then find it in the registry.
    func ensureTable(for className: String) async throws -> String {
        if let table = try await table(for: className) { return table }
        try await execute("SELECT pg_advisory_xact_lock(hashtextextended(current_schema() || ':' || \(bind: .text("cirrus-class:" + className)), 0))")
        if let row = try await rows(registry.findClass(className)).first, let table = row[1].text { return table }
        let taken = Set(try await rows(registry.allClasses).compactMap { $0[1].text })
        let table = SystemSchema.tableName(for: className, taken: taken)
        try await execute(registry.insertClass(className, table: table, at: .now()))
        for statement in SystemSchema.createObjectTable(dialect, table: table, className: className) { try await execute("\(raw: statement)") }
        createdTables[className] = table
        return table
    }

    /// Records new field types, refusing a type that conflicts with the recorded one.
    func register(_ fields: [String: FieldType], in className: String) async throws {
        guard !fields.isEmpty else { return }
        for (field, type) in fields.sorted(by: { $0.key < $1.key }) {
            try await execute(registry.insertField(className, field: field, type: type))
        }
        for row in try await rows(registry.fields(of: className)) {
            guard let field = row[1].text, let attempted = fields[field], let recorded = row[2].text.flatMap(FieldType.init(storedName:)),
                recorded != attempted
            else { continue }
            throw StorageError.typeConflict(field: field, recorded: recorded, attempted: attempted)
        }
    }
}
