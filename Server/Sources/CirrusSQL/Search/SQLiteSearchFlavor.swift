package import CirrusModel

/// SQLite's search index: an FTS5 table (`tokenize = 'ascii'`, which keeps the server's tokens as they are) whose
/// rowids are the numbers of a table of objectIds (an `INTEGER PRIMARY KEY`, stable through `VACUUM`, unlike the
/// object table's own rowids). Ranked by FTS5's `bm25()`, lower first.
package struct SQLiteSearchFlavor: SearchFlavor {
    package init() {}

    private func names(_ table: String) -> (index: String, ids: String) {
        let index = Self.indexTable(table)
        return ("\"\(index)\"", "\"\(SQLIdentifier.fitting(index + "_ids"))\"")
    }

    package func create(table: String, columns: Int) -> [String] {
        let (index, ids) = names(table)
        let list = (0..<max(columns, 1)).map { Self.column($0) }.joined(separator: ", ")
        return [
            "CREATE TABLE IF NOT EXISTS \(ids) (\"n\" INTEGER PRIMARY KEY, \"id\" TEXT NOT NULL UNIQUE)",
            "CREATE VIRTUAL TABLE IF NOT EXISTS \(index) USING fts5(\(list), tokenize = 'ascii')",
        ]
    }

    package func drop(table: String) -> [String] {
        let (index, ids) = names(table)
        return ["DROP TABLE IF EXISTS \(index)", "DROP TABLE IF EXISTS \(ids)"]
    }

    package func upsert(table: String, id: String, columns: [[SearchToken]]) -> [SQLFragment] {
        let (index, ids) = names(table)
        let number: SQLFragment = "(SELECT \"n\" FROM \(raw: ids) WHERE \"id\" = \(bind: .text(id)))"
        let names = (0..<columns.count).map { Self.column($0) }.joined(separator: ", ")
        let values = columns.map { SQLFragment.bind(.text(SearchTokenizer.fts5Text($0))) }.joined(separator: ", ")
        return [
            "INSERT INTO \(raw: ids) (\"id\") VALUES (\(bind: .text(id))) ON CONFLICT (\"id\") DO NOTHING",
            "DELETE FROM \(raw: index) WHERE \"rowid\" = " + number,
            "INSERT INTO \(raw: index) (\"rowid\", \(raw: names)) VALUES (" + number + ", " + values + ")",
        ]
    }

    package func remove(table: String, ids objectIds: [String]) -> [SQLFragment] {
        let (index, ids) = names(table)
        let list = objectIds.map { SQLFragment.bind(.text($0)) }.joined(separator: ", ")
        return [
            "DELETE FROM \(raw: index) WHERE \"rowid\" IN (SELECT \"n\" FROM \(raw: ids) WHERE \"id\" IN (" + list + "))",
            "DELETE FROM \(raw: ids) WHERE \"id\" IN (" + list + ")",
        ]
    }

    /// `{c0 c2} : ("世界" + "界"*)`: the term's phrase in those columns.
    private func expression(_ term: SearchTerm, columns: [Int]) -> String {
        "{" + columns.map { Self.column($0) }.joined(separator: " ") + "} : (" + term.fts5Phrase + ")"
    }

    private func matches(_ index: String, _ ids: String, _ expression: String, select: String) -> SQLFragment {
        "SELECT \(raw: select) FROM \(raw: index) JOIN \(raw: ids) AS \"m\" ON \"m\".\"n\" = \(raw: index).\"rowid\" "
            + "WHERE \(raw: index) MATCH \(bind: .text(expression))"
    }

    package func matching(table: String, term: SearchTerm, columns: [Int]) -> SQLFragment {
        guard !columns.isEmpty else { return "SELECT CAST(NULL AS TEXT) WHERE 1 = 0" }
        let (index, ids) = names(table)
        return matches(index, ids, expression(term, columns: columns), select: "\"m\".\"id\"")
    }

    /// BM25: lower is better.
    package var lowerScoreRanksFirst: Bool { true }

    package func scores(table: String, terms: [(term: SearchTerm, columns: [Int])]) -> SQLFragment {
        let (index, ids) = names(table)
        let expressions = terms.filter { !$0.columns.isEmpty }.map { "(" + expression($0.term, columns: $0.columns) + ")" }
        guard !expressions.isEmpty else { return Self.noScores }
        return matches(index, ids, expressions.joined(separator: " OR "), select: "\"m\".\"id\" AS \"search_id\", bm25(\(index)) AS \"search_score\"")
    }
}
