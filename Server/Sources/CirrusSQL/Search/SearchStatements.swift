package import CirrusModel

/// The statements of one class's search index and of searches over it, in any dialect (the differences are the
/// dialect's ``SearchFlavor``).
///
/// A search is a `WHERE` over the class's object table: each text term of `q` is `"id" IN (objects whose index
/// matches it)`, each range or `_exists_` is the same condition a query's `where` compiles to, combined with `AND`,
/// `OR` and `NOT` as `q` says (a term on a field outside the index compares its value), and ANDed with the caller's read predicate like every query.
package struct SearchStatements: Sendable {
    package let dialect: any SQLDialect
    package let table: String
    /// The class's search fields, in the index's column order.
    package let fields: [String]

    package init(dialect: any SQLDialect, table: String, fields: [String]) {
        self.dialect = dialect
        self.table = table
        self.fields = fields
    }

    private var flavor: any SearchFlavor { dialect.searchFlavor }

    package var create: [String] { flavor.create(table: table, columns: fields.count) }
    package var drop: [String] { flavor.drop(table: table) }

    /// Replaces an object's index entry with the tokens of its search fields.
    package func upsert(id: String, document: [String: JSON]) -> [SQLFragment] {
        flavor.upsert(table: table, id: id, columns: fields.map { SearchTokenizer.tokens(of: document[$0]) })
    }

    package func remove(ids: [String]) -> [SQLFragment] {
        ids.isEmpty ? [] : flavor.remove(table: table, ids: ids)
    }

    /// `q` as a condition on the object table. Terms without a field look in `visibleFields` (the search fields the
    /// caller may read); a term with a field looks in that field, which must be one of them, or `objectId`.
    /// - Throws: ``APIError/Reason/invalidQuery`` for a term on a field that is not searchable.
    package func condition(
        _ query: SearchQuery, visibleFields: [String], otherFields: Set<String>, compiler: ConditionCompiler
    ) throws(APIError) -> SQLFragment {
        switch query {
        case .all: return "1 = 1"
        case .not(let inner): return "NOT (" + (try condition(inner, visibleFields: visibleFields, otherFields: otherFields, compiler: compiler)) + ")"
        case .and(let parts), .or(let parts):
            guard !parts.isEmpty else { return "1 = 1" }
            var compiled: [SQLFragment] = []
            for part in parts { compiled.append("(" + (try condition(part, visibleFields: visibleFields, otherFields: otherFields, compiler: compiler)) + ")") }
            if case .and = query { return compiled.joined(separator: " AND ") }
            return compiled.joined(separator: " OR ")
        case .leaf(.term(let term)):
            switch try term.target(searchFields: visibleFields, otherFields: otherFields) {
            case .text(let searched):
                let columns = searched.compactMap { fields.firstIndex(of: $0) }
                return "\"id\" IN (" + flavor.matching(table: table, term: term, columns: columns) + ")"
            case .exact(let condition):
                return "(" + compiler.compile(condition) + ") IS TRUE"
            }
        case .leaf(.range(let range)):
            return "(" + compiler.compile(range.condition) + ") IS TRUE"
        case .leaf(.exists(let path)):
            return "(" + compiler.compile(.exists(path, true)) + ") IS TRUE"
        }
    }

    /// A page of the objects matching `condition`, by relevance (the index's score over `rankedTerms`, newest first
    /// among equals) unless `order` says otherwise, then by id; each row is the object's columns (``ObjectStatements/columns``) and its score (NULL when not
    /// ranked; ``score(_:)`` reads it).
    package func find(
        where condition: SQLFragment, rankedTerms: [SearchTerm], visibleFields: [String], order: [SQLFragment], limit: Int, skip: Int
    ) -> SQLFragment {
        let objects = ObjectStatements(dialect: dialect, table: table)
        let ranked = rankedTerms.compactMap { term -> (term: SearchTerm, columns: [Int])? in
            guard case .text(let searched)? = try? term.target(searchFields: visibleFields, otherFields: []) else { return nil }
            return (term, searched.compactMap { fields.firstIndex(of: $0) })
        }
        let quoted = dialect.quote(table)
        var statement: SQLFragment = "SELECT \(raw: objects.columns), \"search_rank\".\"search_score\" FROM \(raw: quoted) LEFT JOIN ("
            + flavor.scores(table: table, terms: ranked) + ") AS \"search_rank\" ON \"search_rank\".\"search_id\" = \(raw: quoted).\"id\" WHERE "
            + condition
        // The object's id breaks every tie last: a `sid` pages by offset, and PostgreSQL's sort orders rows of equal
        // keys differently from one LIMIT to the next, which repeated some objects and never showed others.
        let terms = (order.isEmpty ? Self.scoreOrder(dialect, worstFirst: false) + ["\(raw: quoted).\"created_at\" DESC"] : order)
            + ["\(raw: quoted).\"id\""]
        statement.append(" ORDER BY " + terms.joined(separator: ", "))
        statement.append(" LIMIT \(bind: .int(Int64(limit))) OFFSET \(bind: .int(Int64(skip)))")
        return statement
    }

    /// The ORDER BY terms of relevance in ``find(where:rankedTerms:visibleFields:order:limit:skip:)``: best first (worst
    /// with `worstFirst`), unranked objects last.
    package static func scoreOrder(_ dialect: any SQLDialect, worstFirst: Bool) -> [SQLFragment] {
        let descending = dialect.searchFlavor.lowerScoreRanksFirst == worstFirst
        return ["\"search_rank\".\"search_score\" IS NULL", "\"search_rank\".\"search_score\"\(raw: descending ? " DESC" : " ASC")"]
    }

    /// The relevance of a row of ``find(where:rankedTerms:visibleFields:order:limit:skip:)``, higher for better
    /// matches on every store (BM25's sign turned); `nil` for an unranked row.
    package func score(_ row: [SQLValue]) -> Double? {
        guard row.count > 5, let raw = row[5].double else { return nil }
        return flavor.lowerScoreRanksFirst ? -raw : raw
    }

    package func count(where condition: SQLFragment) -> SQLFragment {
        ObjectStatements(dialect: dialect, table: table).count(where: condition)
    }

    /// The objects after `afterId`, a page at a time: what a rebuild indexes, in the page's write transaction.
    package func page(after afterId: String?, limit: Int) -> SQLFragment {
        let objects = ObjectStatements(dialect: dialect, table: table)
        let condition: SQLFragment = afterId.map { "\"id\" > \(bind: .text($0))" } ?? "1 = 1"
        // Locked where the dialect can: a write to one of them waits, so its newer entry is not overwritten by this page's.
        return objects.find(where: condition, order: ["\"id\""], limit: limit, skip: 0) + SQLFragment(dialect.rowLockClause.map { " " + $0 } ?? "")
    }
}
