import CirrusModel
import CirrusSQL
import CirrusSQLAdapter
import CirrusStorage
import GRDB

extension SQLiteStorageAdapter {
    public func aggregate(_ request: StorageAggregation) async throws -> [JSON] {
        let query = request.query
        return try await pool.read { db in
            guard let table = try self.existingTable(for: query.className, db) else { return [] }
            let condition = try self.compiler(for: query, db).compileReadable(query.condition)
            let compiler = AggregationCompiler(dialect: self.dialect, schema: query.schema, dayOffsetMinutes: request.dayOffsetMinutes)
            let statement = compiler.statement(request.aggregation, table: table, where: condition)
            return try self.rows(db, statement.sql).map { row in
                var members: [String: JSON] = [:]
                for (index, column) in statement.columns.enumerated() {
                    members[column.key] = try column.decode(SQLValue(row[index] as DatabaseValue))
                }
                return .object(members)
            }
        }
    }
}

extension SQLValue {
    /// The value SQLite returned for a result column.
    init(_ value: DatabaseValue) {
        switch value.storage {
        case .null: self = .null
        case .int64(let number): self = .int(number)
        case .double(let number): self = .double(number)
        case .string(let text): self = .text(text)
        case .blob(let data): self = .blob(Array(data))
        }
    }
}
