import CirrusModel

extension ObjectStatements {
    /// The objects with these ids from several tables, in one statement: each table's `SELECT` joined with
    /// `UNION ALL`, with a sixth column holding the position of the table in `parts`. With `readers`, only the
    /// objects they may read (see ``ConditionCompiler/readable(by:)``); `nil` is the master key.
    package static func select(_ parts: [(table: String, ids: [String])], dialect: any SQLDialect, readers: [String]?) -> SQLFragment {
        let restriction = ConditionCompiler(dialect: dialect, schema: nil).readable(by: readers)
        let selects = parts.enumerated().map { position, part -> SQLFragment in
            let statements = ObjectStatements(dialect: dialect, table: part.table)
            let ids = part.ids.map { SQLFragment.bind(.text($0)) }.joined(separator: ", ")
            var select: SQLFragment = "SELECT \(raw: statements.columns), \(raw: String(position)) FROM \(raw: dialect.quote(part.table)) WHERE \"id\" IN (\(ids))"
            if let restriction { select.append(" AND (\(restriction))") }
            return select
        }
        return selects.joined(separator: " UNION ALL ")
    }
}
