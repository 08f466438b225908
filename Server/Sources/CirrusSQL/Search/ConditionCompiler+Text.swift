import CirrusModel

/// Parse's `$text` over the class's search index.
extension ConditionCompiler {
    /// `$text`: the object is among those whose index entry matches the search in the field's column. A field outside
    /// the index, or a class whose table the compiler was not given, matches nothing: stores refuse such a condition
    /// before compiling it (``Condition/checkTextSearchable(in:schemaOf:)``).
    func textSearch(_ path: FieldPath, _ search: TextSearch) -> SQLFragment {
        guard !path.isNested, let statements = searchStatements, statements.fields.contains(path.root),
            let matching = try? statements.condition(search.query, visibleFields: [path.root], otherFields: [], compiler: self)
        else { return "FALSE" }
        return "(" + matching + ")"
    }

    /// The statements of the compiled class's search index, when it has one and ``tables`` lists its table.
    package var searchStatements: SearchStatements? {
        guard let className, let table = tables.entry(for: className)?.table, let fields = schema?.options.searchFields else { return nil }
        return SearchStatements(dialect: dialect, table: table, fields: fields)
    }

    /// The ORDER BY terms of `$score` (best first, worst first when `descending`), for a statement that joins the
    /// search scores as ``SearchStatements/find(where:rankedTerms:visibleFields:order:limit:skip:)`` does.
    func textScoreOrder(descending: Bool) -> [SQLFragment] {
        SearchStatements.scoreOrder(dialect, worstFirst: descending)
    }
}
