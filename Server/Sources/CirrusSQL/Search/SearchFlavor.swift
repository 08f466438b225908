package import CirrusModel

/// How one database keeps and queries a class's search index: SQLite's FTS5 (BM25) or PostgreSQL's `tsvector`
/// columns with GIN indexes (`ts_rank`). Both receive tokens the server made (``SearchTokenizer``), so the two stores
/// find the same objects; only their relevance scores differ.
package protocol SearchFlavor: Sendable {
    /// The statements creating the index of a class whose object table is `table`, one column per search field.
    func create(table: String, columns: Int) -> [String]
    /// The statements dropping it.
    func drop(table: String) -> [String]
    /// Replaces the index entry of the object `id` with these columns (each field's tokens).
    func upsert(table: String, id: String, columns: [[SearchToken]]) -> [SQLFragment]
    /// Removes the index entries of these objects.
    func remove(table: String, ids: [String]) -> [SQLFragment]
    /// The ids of the objects whose index matches `term` in one of `columns`, as a sub-select of one column.
    func matching(table: String, term: SearchTerm, columns: [Int]) -> SQLFragment
    /// A sub-select of `search_id` and `search_score` over the objects matching any of `terms` (each in its columns).
    func scores(table: String, terms: [(term: SearchTerm, columns: [Int])]) -> SQLFragment
    /// Whether a lower `search_score` ranks first (BM25's), rather than a higher one (`ts_rank`'s).
    var lowerScoreRanksFirst: Bool { get }
}

extension SearchFlavor {
    /// The name of column `index` of a search index.
    static func column(_ index: Int) -> String { "c\(index)" }

    /// The scores sub-select of no term: no row.
    static var noScores: SQLFragment { "SELECT CAST(NULL AS TEXT) AS \"search_id\", CAST(NULL AS REAL) AS \"search_score\" WHERE 1 = 0" }

    /// The search index table of the object table `table`.
    static func indexTable(_ table: String) -> String { SQLIdentifier.fitting(table + "__search") }
}
