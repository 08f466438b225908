import CirrusModel
package import CirrusSQLStore

/// The embedded store: ``SQLStore`` on one SQLite file.
package typealias SQLiteStorageAdapter = SQLStore<SQLiteDriver>

extension SQLStore where Driver == SQLiteDriver {
    /// Opens (creating if needed) the database at `path`.
    /// - Parameters:
    ///   - statementTimeout: the longest a statement may run before it is interrupted; `nil` for no limit.
    ///   - regexBudgetMilliseconds: how long matching one `$regex` against one value may take
    ///     (``QueryLimits/regexBudgetMilliseconds``).
    /// - Throws: when the file cannot be opened.
    package convenience init(path: String, readers: Int = 4, statementTimeout: Duration? = nil, regexBudgetMilliseconds: Int = QueryLimits().regexBudgetMilliseconds) throws {
        self.init(driver: try SQLiteDriver(path: path, readers: readers, statementTimeout: statementTimeout, regexBudgetMilliseconds: regexBudgetMilliseconds))
    }
}
