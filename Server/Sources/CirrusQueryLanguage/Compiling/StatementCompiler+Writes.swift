import CirrusModel

/// `insert`, `update` and `delete`: REST bodies, and the one object an update or delete names.
extension StatementCompiler {
    func compileInsert(_ insert: InsertStatement) throws(CloudQueryError) -> CloudInsert {
        var keys: [String] = []
        for column in insert.columns {
            guard column.segments.count == 1 else {
                throw CloudQueryError(at: column.position, "insert takes top-level keys, not '\(column)'")
            }
            guard !keys.contains(column.segments[0]) else {
                throw CloudQueryError(at: column.position, "the key '\(column)' is named twice")
            }
            keys.append(column.segments[0])
        }
        var rows: [JSON] = []
        for row in insert.rows {
            guard row.values.count == keys.count else {
                throw CloudQueryError(at: row.position, "\(row.values.count) value\(row.values.count == 1 ? "" : "s") for \(keys.count) key\(keys.count == 1 ? "" : "s")")
            }
            var body: [String: JSON] = [:]
            for (key, value) in zip(keys, row.values) { body[key] = try bind(value, context: .write) }
            rows.append(.object(body))
        }
        return CloudInsert(className: insert.className.name, rows: rows)
    }

    func compileUpdate(_ update: UpdateStatement) throws(CloudQueryError) -> CloudUpdate {
        var body: [String: JSON] = [:]
        for assignment in update.assignments {
            let key = assignment.column.description
            guard body[key] == nil else { throw CloudQueryError(at: assignment.column.position, "the key '\(key)' is set twice") }
            body[key] = try bind(assignment.value, context: .write)
        }
        let (objectId, condition) = try target(update.whereClause, wherePosition: update.wherePosition)
        return CloudUpdate(className: update.className.name, objectId: objectId, body: .object(body), condition: condition)
    }

    func compileDelete(_ delete: DeleteStatement) throws(CloudQueryError) -> CloudDelete {
        let (objectId, condition) = try target(delete.whereClause, wherePosition: delete.wherePosition)
        return CloudDelete(className: delete.className.name, objectId: objectId, condition: condition)
    }

    /// The `objectId = …` an update or delete must name at the top level of its `where` (LeanCloud allows no bulk
    /// writes), and the rest of the `where` as the write's condition.
    private func target(_ predicate: Predicate, wherePosition: SourcePosition) throws(CloudQueryError) -> (String, Condition?) {
        var parts: [Predicate]
        if case .and(let conjuncts) = predicate { parts = conjuncts } else { parts = [predicate] }
        let index = parts.firstIndex {
            if case .compare(let column, .equal, _) = $0, column.segments == ["objectId"] { return true }
            return false
        }
        guard let index, case .compare(_, _, let value) = parts[index] else {
            throw CloudQueryError(at: wherePosition, "update and delete need 'objectId = …' in their where clause")
        }
        guard case .string(let objectId) = try bind(value) else {
            throw CloudQueryError(at: value.position, "objectId takes a string")
        }
        parts.remove(at: index)
        let rest = parts.isEmpty ? nil : try condition(parts.count == 1 ? parts[0] : .and(parts))
        return (objectId, rest)
    }
}
