import CirrusModel
import CirrusSQL
import CirrusSQLAdapter
import CirrusStorage
import GRDB

extension SQLiteStorageAdapter {
    /// The `SELECT`s one statement joins at most: SQLite allows 500 terms in a compound `SELECT`.
    static let classesPerStatement = 400
    /// The ids one statement binds at most: SQLite allows 32766 parameters.
    static let idsPerStatement = 30_000

    public func fetch(_ pointers: [Pointer], readers: [String]?) async throws -> [StoredObject] {
        var idsByClass: [String: Set<String>] = [:]
        for pointer in pointers { idsByClass[pointer.className, default: []].insert(pointer.objectId) }
        let requested = idsByClass.sorted { $0.key < $1.key }
        guard !requested.isEmpty else { return [] }
        return try await pool.read { db in
            var tables: [(className: String, table: String, ids: [String])] = []
            for (className, ids) in requested {
                guard let table = try self.existingTable(for: className, db) else { continue }
                tables.append((className, table, ids.sorted()))
            }
            var objects: [StoredObject] = []
            for chunk in FetchPart.statements(tables, idsPerStatement: Self.idsPerStatement, partsPerStatement: Self.classesPerStatement) {
                let statement = ObjectStatements.select(chunk.map { ($0.table, $0.ids) }, dialect: self.dialect, readers: readers)
                for row in try self.rows(db, statement) {
                    let part: Int = row[5]
                    objects.append(try StoredRow.decode(row.sqlValues, className: chunk[part].className).object)
                }
            }
            return objects
        }
    }
}
