public import CirrusModel
import CirrusSQL
import CirrusSQLAdapter
import CirrusStorage
import GRDB

/// Expression indexes on JSON paths, and the query plan SQLite chooses for a find.
extension SQLiteStorageAdapter {
    /// Creates, if missing, the index on `json_extract(data, '$.path')` that equality and range conditions
    /// on `path` compile to (see ``IndexStatements``), reading the field's recorded type to index a Date's
    /// `iso` or a Pointer's `objectId`.
    /// - Throws: ``StorageError/database(_:)`` when the class does not exist.
    public func ensureIndex(className: String, path: FieldPath) async throws {
        try await pool.write { db in
            guard let table = try self.existingTable(for: className, db) else {
                throw StorageError.database("cannot index \(className).\(path): the class does not exist")
            }
            let schema = try self.recordedSchema(of: className, db)
            for statement in IndexStatements(dialect: self.dialect, table: table).ensure(path: path, type: schema.type(at: path)) {
                try db.execute(sql: statement)
            }
        }
    }

    /// The `detail` lines of `EXPLAIN QUERY PLAN` for the statement ``find(_:)`` runs for `query`; empty
    /// when the class does not exist. For tests and diagnostics.
    package func queryPlan(for query: StorageQuery) async throws -> [String] {
        try await pool.read { db in
            guard let table = try self.existingTable(for: query.className, db) else { return [] }
            // EXPLAIN does not read the database, so it would plan with this connection's cached schema even
            // after another connection added an index; a real read first reloads the schema if it changed.
            _ = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM sqlite_master")
            return try self.rows(db, "EXPLAIN QUERY PLAN " + (try self.findStatement(query, table: table, db))).map { $0["detail"] }
        }
    }
}
