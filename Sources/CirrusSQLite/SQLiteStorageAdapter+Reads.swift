import CirrusModel
import CirrusSQL
import CirrusStorage
import GRDB

extension SQLiteStorageAdapter {
    public func fetch(className: String, ids: [String]) async throws -> [StoredObject] {
        guard !ids.isEmpty else { return [] }
        return try await pool.read { db in
            guard let table = try self.existingTable(for: className, db) else { return [] }
            let statement = ObjectStatements(dialect: self.dialect, table: table).select(ids: ids)
            return try self.rows(db, statement).map { try StoredRow.decode($0, className: className).object }
        }
    }

    public func find(_ query: StorageQuery) async throws -> [StoredObject] {
        try await pool.read { db in
            guard let table = try self.existingTable(for: query.className, db) else { return [] }
            let statement = try self.findStatement(query, table: table, db)
            return try self.rows(db, statement).map { try StoredRow.decode($0, className: query.className).object }
        }
    }

    /// The statement ``find(_:)`` runs; without an explicit order, a `$nearSphere` query comes nearest first.
    /// Only objects the query's readers may read are found.
    func findStatement(_ query: StorageQuery, table: String, _ db: Database) throws -> SQLFragment {
        let compiler = try self.compiler(for: query, db)
        let order = query.order.isEmpty ? compiler.nearOrder(query.condition).map { [$0] } ?? [] : compiler.orderTerms(query.order)
        return ObjectStatements(dialect: self.dialect, table: table).find(
            where: compiler.compileReadable(query.condition), order: order, limit: query.limit, skip: query.skip
        )
    }

    public func count(_ query: StorageQuery) async throws -> Int {
        try await pool.read { db in
            guard let table = try self.existingTable(for: query.className, db) else { return 0 }
            let compiler = try self.compiler(for: query, db)
            let statement = ObjectStatements(dialect: self.dialect, table: table).count(where: compiler.compileReadable(query.condition))
            return try self.rows(db, statement).first.map { $0[0] as Int } ?? 0
        }
    }

    public func relationTargets(className: String, objectId: String, field: String) async throws -> [Pointer] {
        let statement = RegistryStatements(dialect: dialect).members(owner: className, field: field, objectId: objectId)
        return try await pool.read { db in
            try self.rows(db, statement).map { Pointer(className: $0[0], objectId: $0[1]) }
        }
    }
}

/// Decodes a row of `id, created_at, updated_at, acl, data`.
struct StoredRow {
    let object: StoredObject
    /// The size in bytes of the stored document text.
    let encodedSize: Int

    static func decode(_ row: Row, className: String) throws -> StoredRow {
        let dataText: String = row[4]
        guard case .object(let fields) = try JSONParser.parse(dataText) else {
            throw StorageError.database("the stored document of \(className) is not a JSON object")
        }
        let aclText: String? = row[3]
        let object = StoredObject(
            className: className, objectId: row[0],
            createdAt: Timestamp(millisecondsSince1970: row[1]), updatedAt: Timestamp(millisecondsSince1970: row[2]),
            acl: try aclText.map { try JSONParser.parse($0) }, fields: fields
        )
        return StoredRow(object: object, encodedSize: dataText.utf8.count)
    }
}
