package import CirrusModel
import CirrusSQL
import CirrusStorage

/// Classes as the registry records them, and the schema API's changes: classes, fields, options, indexes.
extension SQLStore {
    package func loadSchemas() async throws -> [ClassSchema] {
        try await reading { session in
            var schemas: [String: ClassSchema] = [:]
            for row in try await session.rows(self.registry.allClasses) {
                guard let name = row[0].text, let table = row[1].text else { continue }
                schemas[name] = ClassSchema(className: name, options: Self.options(row[2].text))
                self.tables.record(className: name, table: table)
            }
            for row in try await session.rows(self.registry.allFields) {
                guard let name = row[0].text, let field = row[1].text, let type = row[2].text.flatMap(FieldType.init(storedName:)) else { continue }
                schemas[name]?.fields[field] = type
            }
            return schemas.values.sorted { $0.className < $1.className }
        }
    }

    package func loadSchema(of className: String) async throws -> ClassSchema? {
        try await reading(lookup: true) { session in
            guard let row = try await session.rows(self.registry.findClass(className)).first, let table = row[1].text else { return nil }
            self.tables.record(className: className, table: table)
            return try await self.recordedSchema(of: className, options: row[2].text, session)
        }
    }

    /// The field types and options the registry records for a class.
    /// - Parameter options: the class's stored options when the caller has read its registry row already.
    func recordedSchema(of className: String, options: String?? = nil, _ session: Driver.Session) async throws -> ClassSchema {
        let stored: String?
        if let options {
            stored = options
        } else {
            stored = try await session.rows(registry.findClass(className)).first?[2].text
        }
        var schema = ClassSchema(className: className, options: Self.options(stored))
        for field in try await session.rows(registry.fields(of: className)) {
            if let name = field[1].text, let type = field[2].text.flatMap(FieldType.init(storedName:)) { schema.fields[name] = type }
        }
        return schema
    }

    /// A class's options from their stored text (`NULL`: the defaults).
    static func options(_ text: String?) -> ClassOptions {
        guard let text, let json = try? JSONParser.parse(Array(text.utf8)) else { return ClassOptions() }
        return ClassOptions(stored: json)
    }

    package func defineClass(_ className: String, newFields: [String: FieldType], options: ClassOptions?) async throws -> ClassSchema {
        let (schema, created) = try await writing { session in
            let transaction = WriteTransaction(store: self, session: session)
            _ = try await transaction.ensureTable(for: className)
            try await transaction.register(newFields, in: className)
            if let options {
                let text = options.isDefault ? nil : JSONWriter.string(options.stored)
                try await session.execute(self.registry.setOptions(className, options: text))
            }
            return (try await self.recordedSchema(of: className, session), transaction.createdTables)
        }
        for (name, table) in created { tables.record(className: name, table: table) }
        return schema
    }

    package func deleteFields(className: String, fields: [String]) async throws {
        guard !fields.isEmpty else { return }
        try await writing { session in
            let table = try await self.table(of: className, session)
            try await session.execute(ObjectStatements(dialect: self.dialect, table: table).removing(fields: fields))
            for statement in self.registry.deleteFields(className, fields: fields) { try await session.execute(statement) }
        }
    }

    package func deleteClass(className: String) async throws {
        try await writing { session in
            let statements = ObjectStatements(dialect: self.dialect, table: try await self.table(of: className, session))
            let count = try await session.rows(statements.countAll).first?.first?.integer ?? 0
            guard count == 0 else { throw StorageError.classNotEmpty(count: Int(count)) }
            try await session.execute(statements.drop)
            for statement in self.registry.deleteClass(className) { try await session.execute(statement) }
            try await self.driver.log([.classDeleted(className)], in: session)
        }
        tables.forget(className: className)
    }

    /// Creates, if missing, the expression index equality and range conditions on `path` compile to (see
    /// ``IndexStatements``), reading the field's recorded type to index a Date's instant or a Pointer's `objectId`.
    /// - Throws: ``StorageError/database(_:)`` when the class does not exist.
    package func ensureIndex(className: String, path: FieldPath) async throws {
        try await writing { session in
            guard let table = try await self.existingTable(for: className, session) else {
                throw StorageError.database("cannot index \(className).\(path): the class does not exist")
            }
            let schema = try await self.recordedSchema(of: className, session)
            for statement in IndexStatements(dialect: self.dialect, table: table).ensure(path: path, type: schema.type(at: path)) {
                try await session.execute("\(raw: statement)")
            }
        }
    }

    package func dropIndex(className: String, path: FieldPath) async throws {
        try await writing { session in
            let table = try await self.table(of: className, session)
            let schema = try await self.recordedSchema(of: className, session)
            for statement in IndexStatements(dialect: self.dialect, table: table).drop(path: path, type: schema.type(at: path)) {
                try await session.execute("\(raw: statement)")
            }
        }
    }

    /// The table of a class that must exist.
    /// - Throws: ``StorageError/classNotFound(_:)``.
    private func table(of className: String, _ session: Driver.Session) async throws -> String {
        guard let table = try await existingTable(for: className, session) else { throw StorageError.classNotFound(className) }
        return table
    }
}
