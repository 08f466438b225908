import CirrusModel
import CirrusSQL
import CirrusSQLAdapter
import CirrusStorage
import GRDB

extension SQLiteStorageAdapter {
    /// The compiler for a query's condition: it knows the tables and schemas of the classes the query's
    /// sub-queries read (from the registry), and the query's readers.
    func compiler(for query: StorageQuery, _ db: Database) throws -> ConditionCompiler {
        ConditionCompiler(
            dialect: dialect, schema: query.schema, className: query.className, tables: try classTables(for: query.condition, db),
            readers: query.readers
        )
    }

    /// The tables and recorded schemas of the classes `condition`'s sub-queries and relation owners read; classes that do not
    /// exist are left out.
    func classTables(for condition: Condition, _ db: Database) throws -> ClassTables {
        var tables = ClassTables()
        for className in condition.tableClassNames.sorted() {
            guard let table = try existingTable(for: className, db) else { continue }
            tables.record(className, table: table, schema: try recordedSchema(of: className, db))
        }
        return tables
    }
}
