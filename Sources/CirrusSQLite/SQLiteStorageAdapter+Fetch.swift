import CirrusModel
import CirrusSQL
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
            var parts: [FetchPart] = []
            for (className, ids) in requested {
                guard let table = try self.existingTable(for: className, db) else { continue }
                let sorted = ids.sorted()
                for start in stride(from: 0, to: sorted.count, by: Self.idsPerStatement) {
                    parts.append(FetchPart(className: className, table: table, ids: Array(sorted[start..<min(start + Self.idsPerStatement, sorted.count)])))
                }
            }
            var objects: [StoredObject] = []
            for chunk in Self.statements(parts) {
                let statement = ObjectStatements.select(chunk.map { ($0.table, $0.ids) }, dialect: self.dialect, readers: readers)
                for row in try self.rows(db, statement) {
                    let part: Int = row[5]
                    objects.append(try StoredRow.decode(row, className: chunk[part].className).object)
                }
            }
            return objects
        }
    }

    /// The parts grouped into statements within SQLite's limits: normally one statement for all of them.
    static func statements(_ parts: [FetchPart]) -> [[FetchPart]] {
        var statements: [[FetchPart]] = []
        var current: [FetchPart] = []
        var bound = 0
        for part in parts {
            if !current.isEmpty, current.count == classesPerStatement || bound + part.ids.count > idsPerStatement {
                statements.append(current)
                current = []
                bound = 0
            }
            current.append(part)
            bound += part.ids.count
        }
        if !current.isEmpty { statements.append(current) }
        return statements
    }
}

/// The ids to read from one class table in a pointer fetch.
struct FetchPart {
    let className: String
    let table: String
    let ids: [String]
}
