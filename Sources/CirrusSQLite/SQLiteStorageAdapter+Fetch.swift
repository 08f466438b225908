import CirrusModel
import CirrusSQL
import CirrusStorage
import GRDB

extension SQLiteStorageAdapter {
    /// The classes one statement reads at most: SQLite allows 500 terms in a compound `SELECT`.
    static let classesPerStatement = 400

    public func fetch(_ pointers: [Pointer]) async throws -> [StoredObject] {
        var idsByClass: [String: Set<String>] = [:]
        for pointer in pointers { idsByClass[pointer.className, default: []].insert(pointer.objectId) }
        let requested = idsByClass.sorted { $0.key < $1.key }
        guard !requested.isEmpty else { return [] }
        return try await pool.read { db in
            var parts: [(className: String, table: String, ids: [String])] = []
            for (className, ids) in requested {
                guard let table = try self.existingTable(for: className, db) else { continue }
                parts.append((className, table, ids.sorted()))
            }
            var objects: [StoredObject] = []
            for start in stride(from: 0, to: parts.count, by: Self.classesPerStatement) {
                let chunk = Array(parts[start..<min(start + Self.classesPerStatement, parts.count)])
                let statement = ObjectStatements.select(chunk.map { ($0.table, $0.ids) }, dialect: self.dialect)
                for row in try self.rows(db, statement) {
                    let part: Int = row[5]
                    objects.append(try StoredRow.decode(row, className: chunk[part].className).object)
                }
            }
            return objects
        }
    }
}

extension ObjectStatements {
    /// The objects with these ids from several tables, in one statement: each table's `SELECT` joined with
    /// `UNION ALL`, with a sixth column holding the position of the table in `parts`.
    static func select(_ parts: [(table: String, ids: [String])], dialect: any SQLDialect) -> SQLFragment {
        let selects = parts.enumerated().map { position, part -> SQLFragment in
            let statements = ObjectStatements(dialect: dialect, table: part.table)
            let ids = part.ids.map { SQLFragment.bind(.text($0)) }.joined(separator: ", ")
            return "SELECT \(raw: statements.columns), \(raw: String(position)) FROM \(raw: dialect.quote(part.table)) WHERE \"id\" IN (\(ids))"
        }
        return selects.joined(separator: " UNION ALL ")
    }
}
