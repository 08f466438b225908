package import CirrusModel
import Synchronization

/// The statements that read and write one class's table.
///
/// Every object table has the same columns: `id`, `created_at` and `updated_at` (milliseconds since
/// 1970), `acl` (JSON or NULL for public) and `data` (the other fields as one JSON document).
package struct ObjectStatements: Sendable {
    package let dialect: any SQLDialect
    package let table: String

    package init(dialect: any SQLDialect, table: String) {
        self.dialect = dialect
        self.table = table
    }

    private var quotedTable: String { dialect.quote(table) }

    /// The select list, in the order ``StoredRow`` readers expect: id, created_at, updated_at, acl, data. Written once per
    /// dialect (every read selects it).
    package var columns: String {
        if let known = Self.columnLists.withLock({ $0[dialect.name] }) { return known }
        let list = ["\"id\"", "\"created_at\"", "\"updated_at\"", dialect.documentText("acl"), dialect.documentText("data")].joined(separator: ", ")
        Self.columnLists.withLock { $0[dialect.name] = list }
        return list
    }

    private static let columnLists = Mutex<[String: String]>([:])

    /// `INSERT` one object; `dataText` is the document already encoded (its size was checked on it).
    package func insert(id: String, createdAt: Timestamp, updatedAt: Timestamp, acl: JSON?, dataText: String) -> SQLFragment {
        let aclValue = acl.map(dialect.documentParameter) ?? "NULL"
        return "INSERT INTO \(raw: quotedTable) (\"id\", \"created_at\", \"updated_at\", \"acl\", \"data\") VALUES ("
            + "\(bind: .text(id)), \(bind: .int(createdAt.millisecondsSince1970)), \(bind: .int(updatedAt.millisecondsSince1970)), "
            + "\(aclValue), \(dialect.documentParameter(text: dataText)))"
    }

    package func select(ids: [String]) -> SQLFragment {
        "SELECT \(raw: columns) FROM \(raw: quotedTable) WHERE \"id\" IN (\(ids.map { SQLFragment.bind(.text($0)) }.joined(separator: ", ")))"
    }

    /// `UPDATE … RETURNING` the row; matches nothing when the object is missing or `condition` fails.
    ///
    /// With `returningPrior` (only where the dialect has a ``SQLDialect/rowLockClause``), the row is read and locked in
    /// the same statement and returned after the updated one: ten columns, the object after the update, then before it.
    package func update(
        id: String, document: SQLFragment?, updatedAt: Timestamp, acl: JSON??, condition: SQLFragment?, returningPrior: Bool = false
    ) -> SQLFragment {
        var assignments: [SQLFragment] = ["\"updated_at\" = \(bind: .int(updatedAt.millisecondsSince1970))"]
        if let document { assignments.append("\"data\" = \(document)") }
        if let acl { assignments.append("\"acl\" = \(acl.map(dialect.documentParameter) ?? "NULL")") }
        var statement: SQLFragment = "UPDATE \(raw: quotedTable) SET \(assignments.joined(separator: ", "))"
        if returningPrior, let lock = dialect.rowLockClause {
            statement.append(
                " FROM (SELECT \"id\" AS \"prior_id\", \"created_at\" AS \"prior_created_at\", \"updated_at\" AS \"prior_updated_at\", "
                    + "\"acl\" AS \"prior_acl\", \"data\" AS \"prior_data\" FROM \(raw: quotedTable) WHERE \"id\" = \(bind: .text(id)) \(raw: lock)) AS \"prior\" "
                    + "WHERE \"id\" = \"prior_id\""
            )
        } else {
            statement.append(" WHERE \"id\" = \(bind: .text(id))")
        }
        if let condition { statement.append(" AND \(condition)") }
        statement.append(" RETURNING \(raw: columns)")
        if returningPrior, dialect.rowLockClause != nil { statement.append(", \(raw: priorColumns)") }
        return statement
    }

    /// The prior row's columns, in ``columns``' order (their names differ from the table's, so neither needs qualifying).
    private var priorColumns: String {
        ["\"prior_id\"", "\"prior_created_at\"", "\"prior_updated_at\"", dialect.documentText("prior_acl"), dialect.documentText("prior_data")]
            .joined(separator: ", ")
    }

    /// `DELETE` the listed objects that satisfy `condition`, returning the deleted rows (``columns``).
    package func delete(ids: [String], condition: SQLFragment?) -> SQLFragment {
        var statement: SQLFragment = "DELETE FROM \(raw: quotedTable) WHERE \"id\" IN (\(ids.map { SQLFragment.bind(.text($0)) }.joined(separator: ", ")))"
        if let condition { statement.append(" AND \(condition)") }
        statement.append(" RETURNING \(raw: columns)")
        return statement
    }

    /// Whether an object exists (and satisfies `condition`): `SELECT 1 … WHERE id = ?`.
    package func exists(id: String, where condition: SQLFragment? = nil) -> SQLFragment {
        var statement: SQLFragment = "SELECT 1 FROM \(raw: quotedTable) WHERE \"id\" = \(bind: .text(id))"
        if let condition { statement.append(" AND \(condition)") }
        return statement
    }

    package func find(where condition: SQLFragment, order: [SQLFragment], limit: Int, skip: Int) -> SQLFragment {
        var statement: SQLFragment = "SELECT \(raw: columns) FROM \(raw: quotedTable) WHERE \(condition)"
        if !order.isEmpty { statement.append(" ORDER BY \(order.joined(separator: ", "))") }
        statement.append(" LIMIT \(bind: .int(Int64(limit))) OFFSET \(bind: .int(Int64(skip)))")
        return statement
    }

    /// Every object's document with `fields` removed (a schema deleting fields).
    package func removing(fields: [String]) -> SQLFragment {
        var document: SQLFragment = "\"data\""
        for field in fields.sorted() { document = dialect.removing(document, path: FieldPath(field: field)) }
        return "UPDATE \(raw: quotedTable) SET \"data\" = \(document)"
    }

    /// Drops the table (a class deleted once it holds no objects).
    package var drop: SQLFragment { "DROP TABLE \(raw: quotedTable)" }

    /// How many objects the table holds.
    package var countAll: SQLFragment { "SELECT COUNT(*) FROM \(raw: quotedTable)" }

    package func count(where condition: SQLFragment) -> SQLFragment {
        "SELECT COUNT(*) FROM \(raw: quotedTable) WHERE \(condition)"
    }
}

extension ConditionCompiler {
    /// The ORDER BY terms for `keys`: built-in columns directly, Date fields by their ISO text, `$score` by the search
    /// scores a statement joins (``textScoreOrder(descending:)``).
    package func orderTerms(_ keys: [SortKey]) -> [SQLFragment] {
        keys.flatMap { key -> [SQLFragment] in
            if key.path == .textScore { return textScoreOrder(descending: key.descending) }
            return [orderTerm(key)]
        }
    }

    private func orderTerm(_ key: SortKey) -> SQLFragment {
        let direction = key.descending ? " DESC" : " ASC"
        if !key.path.isNested, let column = Self.builtInColumns[key.path.root] {
            return SQLFragment(dialect.quote(column) + direction)
        }
        var target = dialect.target(column: Self.documentColumn, path: key.path)
        let type = schema?.type(at: key.path)
        if type == .date { target = dialect.member("iso", of: target) }
        if let type, let term = dialect.typedSortTerm(target, type: type, descending: key.descending) { return term }
        return "\(dialect.sortExpression(target))\(raw: direction)"
    }
}
