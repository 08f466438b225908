package import CirrusModel

/// Expression indexes on JSON paths of one class's table.
///
/// Each index is built on exactly the expression that ``ConditionCompiler`` puts on the left of an equality
/// or range comparison on that path, so that the planner can use it: `json_extract("data", '$."name"')` on
/// SQLite; the JSONB value `("data" #> '{"name"}')` on PostgreSQL, plus its text with `COLLATE "C"` for
/// values compared as strings. Dates are indexed on their `iso` member and pointers on their `objectId`,
/// which is what their comparisons read. The compiler emits the bare expression when the class schema
/// records the field as a scalar type (String, Number, Boolean, Date, Pointer…); for other fields it also
/// looks into arrays, and the index may not apply.
package struct IndexStatements: Sendable {
    package let dialect: any SQLDialect
    package let table: String

    package init(dialect: any SQLDialect, table: String) {
        self.dialect = dialect
        self.table = table
    }

    /// The `CREATE INDEX IF NOT EXISTS` statements for `path`, whose recorded type is `type` (`nil` when
    /// unknown). Built-in fields have their own columns and indexes, and Relation fields get none. Array fields
    /// get the dialect's inverted index (GIN on PostgreSQL, none on SQLite), which string membership conditions use.
    package func ensure(path: FieldPath, type: FieldType?) -> [String] {
        if type == .array, let inverted = invertedIndex(path) {
            return ["CREATE INDEX IF NOT EXISTS \(dialect.quote(inverted.name)) ON \(dialect.quote(table)) USING \(inverted.method) ((\(inverted.expression)))"]
        }
        return indexes(path: path, type: type).map { name, expression in
            "CREATE INDEX IF NOT EXISTS \(dialect.quote(name)) ON \(dialect.quote(table)) ((\(expression))\(dialect.indexOrderSuffix))"
        }
    }

    /// The `DROP INDEX IF EXISTS` statements for the indexes ``ensure(path:type:)`` creates.
    package func drop(path: FieldPath, type: FieldType?) -> [String] {
        if type == .array, let inverted = invertedIndex(path) { return ["DROP INDEX IF EXISTS \(dialect.quote(inverted.name))"] }
        return indexes(path: path, type: type).map { name, _ in "DROP INDEX IF EXISTS \(dialect.quote(name))" }
    }

    /// The inverted index of an Array field, where the dialect has one: what ``ConditionCompiler``'s string
    /// membership prefilter reads.
    private func invertedIndex(_ path: FieldPath) -> (name: String, method: String, expression: String)? {
        if !path.isNested, ConditionCompiler.builtInColumns[path.root] != nil { return nil }
        guard let (method, expression) = dialect.arrayIndexExpression(dialect.target(column: ConditionCompiler.documentColumn, path: path))
        else { return nil }
        return (indexName(path), method, dialect.render(expression).sql)
    }

    /// The name and indexed expression of each index on `path`.
    private func indexes(path: FieldPath, type: FieldType?) -> [(name: String, expression: String)] {
        if !path.isNested, ConditionCompiler.builtInColumns[path.root] != nil { return [] }
        let field = dialect.target(column: ConditionCompiler.documentColumn, path: path)
        let target: JSONTarget
        let textual: Bool
        switch type {
        case .array, .relation: return []
        case .date: (target, textual) = (dialect.member("iso", of: field), true)
        case .pointer: (target, textual) = (dialect.member("objectId", of: field), true)
        case .string, nil: (target, textual) = (field, true)
        default: (target, textual) = (field, false)
        }
        let base = indexName(path)
        return dialect.comparedExpressions(target, textual: textual).enumerated().map { position, expression in
            (position == 0 ? base : base + "_\(position + 1)", dialect.render(expression).sql)
        }
    }

    /// The name of the (first) index on `path`. PostgreSQL truncates identifiers to 63 bytes: the table part is
    /// shortened (class names are ASCII) so the hash and a suffix survive.
    private func indexName(_ path: FieldPath) -> String {
        let fragment = Self.nameFragment(path)
        return table.prefix(SQLIdentifier.maximumLength - fragment.count - 3) + "_" + fragment
    }

    /// A name part unique per path: up to 24 of its letters, digits and underscores, then a hash of the
    /// exact path.
    static func nameFragment(_ path: FieldPath) -> String {
        let joined = path.segments.joined(separator: "_")
        let readable = String(joined.unicodeScalars.filter { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "_") }
            .prefix(24).map(Character.init))
        return "i_" + readable + "_" + SQLIdentifier.hex(path.description)
    }
}
