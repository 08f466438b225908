public import CirrusModel
import CirrusSQL
import CirrusSQLAdapter
import CirrusStorage
import PostgresNIO

/// The schema API's changes: defining classes and fields, options, dropping fields, classes and indexes.
extension PostgresStorageAdapter {
    public func defineClass(_ className: String, newFields: [String: FieldType], options: ClassOptions?) async throws -> ClassSchema {
        let (schema, created) = try await writing { connection in
            let session = PostgresWriteSession(adapter: self, connection: connection)
            _ = try await session.ensureTable(for: className)
            try await session.register(newFields, in: className)
            if let options {
                let text = options.isDefault ? nil : JSONWriter.string(options.stored)
                try await self.execute(connection, RegistryStatements(dialect: self.dialect).setOptions(className, options: text))
            }
            return (try await self.recordedSchema(of: className, connection), session.createdTables)
        }
        for (name, table) in created { tables.record(className: name, table: table) }
        return schema
    }

    public func deleteFields(className: String, fields: [String]) async throws {
        guard !fields.isEmpty else { return }
        try await writing { connection in
            guard let table = try await self.existingTable(for: className, connection) else { throw StorageError.classNotFound(className) }
            try await self.execute(connection, ObjectStatements(dialect: self.dialect, table: table).removing(fields: fields))
            for statement in RegistryStatements(dialect: self.dialect).deleteFields(className, fields: fields) {
                try await self.execute(connection, statement)
            }
        }
    }

    public func deleteClass(className: String) async throws {
        try await writing { connection in
            guard let table = try await self.existingTable(for: className, connection) else { throw StorageError.classNotFound(className) }
            let statements = ObjectStatements(dialect: self.dialect, table: table)
            let count = try await self.rows(connection, statements.countAll).first?.first?.integer ?? 0
            guard count == 0 else { throw StorageError.classNotEmpty(count: Int(count)) }
            try await self.execute(connection, statements.drop)
            for statement in RegistryStatements(dialect: self.dialect).deleteClass(className) { try await self.execute(connection, statement) }
        }
        tables.forget(className: className)
    }

    /// Creates, if missing, the expression index equality and range conditions on `path` compile to.
    /// - Throws: ``StorageError/database(_:)`` when the class does not exist.
    public func ensureIndex(className: String, path: FieldPath) async throws {
        try await writing { connection in
            guard let table = try await self.existingTable(for: className, connection) else {
                throw StorageError.database("cannot index \(className).\(path): the class does not exist")
            }
            let schema = try await self.recordedSchema(of: className, connection)
            for statement in IndexStatements(dialect: self.dialect, table: table).ensure(path: path, type: schema.type(at: path)) {
                try await self.execute(connection, "\(raw: statement)")
            }
        }
    }

    public func dropIndex(className: String, path: FieldPath) async throws {
        try await writing { connection in
            guard let table = try await self.existingTable(for: className, connection) else { throw StorageError.classNotFound(className) }
            let schema = try await self.recordedSchema(of: className, connection)
            for statement in IndexStatements(dialect: self.dialect, table: table).drop(path: path, type: schema.type(at: path)) {
                try await self.execute(connection, "\(raw: statement)")
            }
        }
    }

    /// A transaction whose database errors become ``StorageError``s.
    func writing<T: Sendable>(_ body: @escaping @Sendable (PostgresConnection) async throws -> T) async throws -> T {
        do {
            return try await transaction(body)
        } catch let error as PSQLError {
            throw StorageError.database(Self.describe(error))
        }
    }
}
