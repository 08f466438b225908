package import CirrusModel

/// PostgreSQL's search index: a table of one `tsvector` column per search field, each with a GIN index, filled with
/// `tsvector` literals of the server's tokens (no text-search configuration touches them, no extension is needed).
/// Ranked by the sum of `ts_rank` over the matching columns, higher first.
package struct PostgresSearchFlavor: SearchFlavor {
    package init() {}

    private func index(_ table: String) -> String { "\"\(Self.indexTable(table))\"" }

    package func create(table: String, columns: Int) -> [String] {
        let name = Self.indexTable(table)
        let list = (0..<max(columns, 1)).map { "\"\(Self.column($0))\" tsvector NOT NULL" }.joined(separator: ", ")
        return ["CREATE TABLE IF NOT EXISTS \"\(name)\" (\"id\" TEXT PRIMARY KEY, \(list))"]
            + (0..<max(columns, 1)).map { column in
                "CREATE INDEX IF NOT EXISTS \"\(SQLIdentifier.fitting(name + "_" + Self.column(column)))\" ON \"\(name)\" USING GIN (\"\(Self.column(column))\")"
            }
    }

    package func drop(table: String) -> [String] {
        ["DROP TABLE IF EXISTS \(index(table))"]
    }

    package func upsert(table: String, id: String, columns: [[SearchToken]]) -> [SQLFragment] {
        let names = (0..<columns.count).map { "\"\(Self.column($0))\"" }
        let values = columns.map { "CAST(\(bind: .text(SearchTokenizer.tsvector($0))) AS tsvector)" as SQLFragment }.joined(separator: ", ")
        let updates = names.map { "\($0) = EXCLUDED.\($0)" }.joined(separator: ", ")
        return [
            "INSERT INTO \(raw: index(table)) (\"id\", \(raw: names.joined(separator: ", "))) VALUES (\(bind: .text(id)), " + values
                + ") ON CONFLICT (\"id\") DO UPDATE SET \(raw: updates)"
        ]
    }

    package func remove(table: String, ids: [String]) -> [SQLFragment] {
        ["DELETE FROM \(raw: index(table)) WHERE \"id\" IN (" + ids.map { SQLFragment.bind(.text($0)) }.joined(separator: ", ") + ")"]
    }

    /// `"c0" @@ CAST('世界' <-> '界':* AS tsquery) OR …`, one test per column.
    private func test(_ term: SearchTerm, columns: [Int], _ apply: (String, SQLFragment) -> SQLFragment) -> [SQLFragment] {
        columns.map { apply("\"\(Self.column($0))\"", "CAST(\(bind: .text(term.tsquery)) AS tsquery)") }
    }

    package func matching(table: String, term: SearchTerm, columns: [Int]) -> SQLFragment {
        guard !columns.isEmpty else { return "SELECT CAST(NULL AS TEXT) WHERE 1 = 0" }
        let tests = test(term, columns: columns) { column, query in "\(raw: column) @@ " + query }
        return "SELECT \"id\" FROM \(raw: index(table)) WHERE " + tests.joined(separator: " OR ")
    }

    /// `ts_rank`: higher is better.
    package var lowerScoreRanksFirst: Bool { false }

    package func scores(table: String, terms: [(term: SearchTerm, columns: [Int])]) -> SQLFragment {
        let used = terms.filter { !$0.columns.isEmpty }
        guard !used.isEmpty else { return Self.noScores }
        let ranks = used.flatMap { test($0.term, columns: $0.columns) { column, query in "ts_rank(\(raw: column), " + query + ")" } }
        let tests = used.flatMap { test($0.term, columns: $0.columns) { column, query in "\(raw: column) @@ " + query } }
        return "SELECT \"id\" AS \"search_id\", " + ranks.joined(separator: " + ") + " AS \"search_score\" FROM \(raw: index(table)) WHERE "
            + tests.joined(separator: " OR ")
    }
}
