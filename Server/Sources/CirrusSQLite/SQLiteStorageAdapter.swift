import CirrusModel
import Foundation
package import CirrusSQLStore

/// The embedded store: ``SQLStore`` on one SQLite file.
package typealias SQLiteStorageAdapter = SQLStore<SQLiteDriver>

extension SQLStore where Driver == SQLiteDriver {
    /// Opens (creating if needed) the database at `path`.
    /// - Parameters:
    ///   - readers: the reader connections; by default one per core, and at least 4 (a read holds its thread while it
    ///     waits for one).
    ///   - statementTimeout: the longest a statement may run before it is interrupted; `nil` for no limit.
    ///   - regexBudgetMilliseconds: how long matching one `$regex` against one value may take
    ///     (``QueryLimits/regexBudgetMilliseconds``).
    /// - Throws: when the file cannot be opened.
    package convenience init(path: String, readers: Int = max(4, ProcessInfo.processInfo.activeProcessorCount), statementTimeout: Duration? = nil, regexBudgetMilliseconds: Int = QueryLimits().regexBudgetMilliseconds) throws {
        self.init(driver: try SQLiteDriver(path: path, readers: readers, statementTimeout: statementTimeout, regexBudgetMilliseconds: regexBudgetMilliseconds))
    }
}
