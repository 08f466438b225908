import CirrusModel
import CirrusSQL
import CirrusSQLAdapter
import CirrusStorage
import GRDB

extension SQLiteStorageAdapter {
    public func fetch(className: String, ids: [String]) async throws -> [StoredObject] {
        guard !ids.isEmpty else { return [] }
        return try await pool.read { db in
            guard let table = try self.existingTable(for: className, db) else { return [] }
            let statement = ObjectStatements(dialect: self.dialect, table: table).select(ids: ids)
            return try self.rows(db, statement).map { try StoredRow.decode($0.sqlValues, className: className).object }
        }
    }

    public func find(_ query: StorageQuery) async throws -> [StoredObject] {
        try await pool.read { db in
            guard let table = try self.existingTable(for: query.className, db) else { return [] }
            let statement = try self.findStatement(query, table: table, db)
            return try self.rows(db, statement).map { try StoredRow.decode($0.sqlValues, className: query.className).object }
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

extension SQLiteStorageAdapter {
    public func relationMembers(ownerClass: String, field: String, after: RelationMember?, limit: Int) async throws -> [RelationMember] {
        let statement = RegistryStatements(dialect: dialect).allMembers(
            owner: ownerClass, field: field, after: after.map { ($0.owningId, $0.relatedId) }, limit: limit
        )
        return try await pool.read { db in
            try self.rows(db, statement).map { RelationMember(owningId: $0[0], relatedId: $0[1]) }
        }
    }
}

extension Row {
    /// The row's values in column order.
    var sqlValues: [SQLValue] {
        (0..<count).map { SQLValue(self[$0] as DatabaseValue) }
    }
}
