public import CirrusModel
import CirrusSQL
import CirrusSQLAdapter
import CirrusStorage
import GRDB

/// The schema API's changes: defining classes and fields, options, dropping fields, classes and indexes.
extension SQLiteStorageAdapter {
    public func defineClass(_ className: String, newFields: [String: FieldType], options: ClassOptions?) async throws -> ClassSchema {
        let (schema, created) = try await pool.write { db in
            let session = WriteSession(adapter: self, db: db)
            _ = try session.ensureTable(for: className)
            try session.register(newFields, in: className)
            if let options {
                let text = options.isDefault ? nil : JSONWriter.string(options.stored)
                try self.execute(db, RegistryStatements(dialect: self.dialect).setOptions(className, options: text))
            }
            return (try self.recordedSchema(of: className, db), session.createdTables)
        }
        for (name, table) in created { tables.record(className: name, table: table) }
        return schema
    }

    public func deleteFields(className: String, fields: [String]) async throws {
        guard !fields.isEmpty else { return }
        try await pool.write { db in
            guard let table = try self.existingTable(for: className, db) else { throw StorageError.classNotFound(className) }
            try self.execute(db, ObjectStatements(dialect: self.dialect, table: table).removing(fields: fields))
            for statement in RegistryStatements(dialect: self.dialect).deleteFields(className, fields: fields) { try self.execute(db, statement) }
        }
    }

    public func deleteClass(className: String) async throws {
        try await pool.write { db in
            guard let table = try self.existingTable(for: className, db) else { throw StorageError.classNotFound(className) }
            let statements = ObjectStatements(dialect: self.dialect, table: table)
            let count: Int = try self.rows(db, statements.countAll).first?[0] ?? 0
            guard count == 0 else { throw StorageError.classNotEmpty(count: count) }
            try self.execute(db, statements.drop)
            for statement in RegistryStatements(dialect: self.dialect).deleteClass(className) { try self.execute(db, statement) }
        }
        tables.forget(className: className)
    }

    public func dropIndex(className: String, path: FieldPath) async throws {
        try await pool.write { db in
            guard let table = try self.existingTable(for: className, db) else { throw StorageError.classNotFound(className) }
            let schema = try self.recordedSchema(of: className, db)
            for statement in IndexStatements(dialect: self.dialect, table: table).drop(path: path, type: schema.type(at: path)) {
                try db.execute(sql: statement)
            }
        }
    }
}
